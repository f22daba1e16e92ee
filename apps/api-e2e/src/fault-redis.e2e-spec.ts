import { spawnSync } from 'node:child_process';
import Redis from 'ioredis';
import { withinOneMinute } from './clock';
import { startEchoUpstream } from './echo-upstream';
import { withKeys } from './keys';
import { OwnRedis } from './own-redis';
import { startStack, Stack } from './stack';

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedisServer) process.stdout.write('redis-server not found: the Redis fault suite is skipped\n');

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

(hasRedisServer ? describe : describe.skip)('fault: Redis killed (kill -9) and restarted mid-traffic', () => {
  let server: OwnRedis;
  let admin: Redis;
  let stack: Stack;
  let echo: Awaited<ReturnType<typeof startEchoUpstream>>;

  beforeAll(async () => {
    server = await OwnRedis.startInTempDir('tcg-fault-redis-');
    echo = await startEchoUpstream();
    stack = await startStack({
      v1Url: echo.url,
      gatewayEnv: { REDIS_URL: `redis://127.0.0.1:${server.port}/0` },
    });
    admin = new Redis({ port: server.port, maxRetriesPerRequest: 1 });
    admin.on('error', () => undefined); // it reconnects on its own after the restart
  });
  afterAll(async () => {
    await stack?.close();
    await echo?.close();
    admin?.disconnect();
    await server?.remove();
  });

  it('limits from memory while Redis is dead, writes the outage units back, and never exceeds the limit', async () => {
    const { id, key } = await withKeys(async (k) => {
      const created = await k.create('free', 'fault-redis'); // 10 a minute
      return { id: created.record.id, key: created.key };
    });
    const call = async (): Promise<number> => {
      const res = await fetch(`${stack.gatewayUrl}/v1/x`, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      return res.status;
    };
    await withinOneMinute(45);
    const minuteKey = `quota:{${id}}:m:${Math.floor(Date.now() / 60_000)}`;
    const seen: number[] = [];

    for (let i = 0; i < 4; i++) seen.push(await call());
    expect(seen).toEqual([200, 200, 200, 200]);
    expect(await admin.get(minuteKey)).toBe('4');

    await server.kill();
    const during: number[] = [];
    for (let i = 0; i < 10; i++) during.push(await call());
    // Served from memory, from the 4 Redis had counted: 6 more, then 429 — never unlimited.
    expect(during).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    seen.push(...during);

    await server.start(); // same port, same append-only file
    let inRedis = 0;
    for (let i = 0; i < 60 && inRedis < 10; i++) {
      await sleep(250);
      seen.push(await call());
      inRedis = Number(await admin.get(minuteKey).catch(() => '0'));
    }
    // Redis holds what it counted before the outage and what memory admitted during it.
    expect(inRedis).toBe(10);
    seen.push(await call());
    // The documented bound for one instance and a key it had seen before the outage: no overshoot.
    expect(seen.filter((s) => s === 200)).toHaveLength(10);
    expect(seen.at(-1)).toBe(429);
    expect(new Set(seen)).toEqual(new Set([200, 429]));
  });
});
