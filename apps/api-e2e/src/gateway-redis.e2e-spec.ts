import Redis from 'ioredis';
import { withinOneMinute } from './clock';
import { startEchoUpstream } from './echo-upstream';
import { withKeys } from './keys';
import { startStack, Stack } from './stack';
import { relayTo, TcpProxy } from '@tcg/persistence/testing';

const redisUrl = process.env['REDIS_URL'];
if (!redisUrl) process.stdout.write('REDIS_URL not set: gateway Redis end-to-end tests skipped\n');
const describeWithRedis = redisUrl ? describe : describe.skip;

const pad = (n: number) => String(n).padStart(2, '0');

describeWithRedis('gateway quotas on Redis (real Redis, cut mid-test)', () => {
  let proxy: TcpProxy;
  let stack: Stack;
  let echo: Awaited<ReturnType<typeof startEchoUpstream>>;
  let redis: Redis;

  beforeAll(async () => {
    // Through the proxy, but to the same database index (and credentials) as REDIS_URL.
    const relay = await relayTo(redisUrl!, 6379);
    proxy = relay.proxy;
    echo = await startEchoUpstream();
    stack = await startStack({ v1Url: echo.url, gatewayEnv: { REDIS_URL: relay.url } });
    redis = new Redis(redisUrl!);
  });
  afterAll(async () => {
    await stack.close();
    await echo.close();
    await proxy.cut();
    redis.disconnect();
  });

  async function freeKey(): Promise<{ id: string; key: string }> {
    return withKeys(async (k) => {
      const { key, record } = await k.create('free', 'e2e-redis');
      return { id: record.id, key };
    });
  }

  // A gateway stuck on the dead Redis would make the call throw (an abort), not answer.
  const call = (key: string) =>
    fetch(`${stack.gatewayUrl}/v1/x`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(5000) });

  it('trips the daily limit with DAILY_LIMIT_EXCEEDED and Retry-After to UTC midnight', async () => {
    const { id, key } = await freeKey();
    const now = new Date();
    const dayId = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
    await redis.set(`quota:{${id}}:d:${dayId}`, 100, 'EX', 120); // the free plan's 100 a day, used
    const res = await call(key);
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ code: 'DAILY_LIMIT_EXCEEDED' });
    const toMidnight =
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
    expect(Math.abs(Number(res.headers.get('retry-after')) - toMidnight)).toBeLessThan(5);
    expect(await redis.get(`quota:{${id}}:d:${dayId}`)).toBe('100'); // refused: charged nothing
  });

  it('trips the monthly limit with REQUEST_LIMIT_EXCEEDED and Retry-After to the month end', async () => {
    const { id, key } = await freeKey();
    const now = new Date();
    await redis.set(`quota:{${id}}:M:${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}`, 1000, 'EX', 120);
    const res = await call(key);
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ code: 'REQUEST_LIMIT_EXCEEDED' });
    const toMonthEnd = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
    expect(Math.abs(Number(res.headers.get('retry-after')) - toMonthEnd)).toBeLessThan(5);
  });

  it('keeps limiting in memory while Redis is unreachable, and writes those units back when it returns', async () => {
    const { id, key } = await freeKey();
    await withinOneMinute(30);
    const minuteKey = `quota:{${id}}:m:${Math.floor(Date.now() / 60_000)}`;
    for (let i = 0; i < 3; i++) expect((await call(key)).status).toBe(200); // 3 of 10 counted in Redis
    await proxy.cut();
    const during: number[] = [];
    for (let i = 0; i < 12; i++) {
      during.push((await call(key)).status);
    }
    // Memory carries on from the usage Redis last reported (3 of 10): 7 more, then 429 — never unlimited.
    expect(during.filter((s) => s === 200)).toHaveLength(7);
    expect(during.slice(-5)).toEqual([429, 429, 429, 429, 429]);

    await proxy.start(); // same port
    // Once the gateway is back on Redis, Redis holds the 3 it counted and the 7 memory admitted.
    let inRedis = 0;
    for (let i = 0; i < 50 && inRedis < 10; i++) {
      await new Promise((r) => setTimeout(r, 200));
      expect((await call(key)).status).toBe(429);
      inRedis = Number(await redis.get(minuteKey));
    }
    expect(inRedis).toBe(10);
    const after = await call(key);
    expect(after.status).toBe(429);
    expect(await after.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
  });
});
