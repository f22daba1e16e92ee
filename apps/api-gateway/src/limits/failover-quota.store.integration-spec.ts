import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { relayTo, TcpProxy } from '@tcg/persistence/testing';
import { Failover, storeBackMessage, storeUnreachableMessage } from './failover';
import { FailoverQuotaStore } from './failover-quota.store';
import { MemoryQuotaStore } from './memory-quota.store';
import type { QuotaDecision, QuotaLimits } from './quota';
import { createQuotaRedis, RedisQuotaStore } from './redis-quota.store';

const REDIS_URL = process.env['REDIS_URL'];
if (!REDIS_URL) process.stdout.write('REDIS_URL not set: Redis failover tests skipped\n');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

(REDIS_URL ? describe : describe.skip)('FailoverQuotaStore (Redis at REDIS_URL behind a proxy)', () => {
  const run = `test-${randomBytes(6).toString('hex')}`;
  let n = 0;
  const newKeyId = (): string => `${run}-${++n}`;
  // Same windows throughout, whatever the wall clock does during the test: \`now\` is a second into
  // the current minute and the store's clock runs on from it, so a test that crosses a minute on the
  // wall clock still writes memory's units back into \`now\`'s windows (59 s of room) instead of
  // dropping them as belonging to a window that has ended.
  const now = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  const started = Date.now();
  const clock = (): number => now + (Date.now() - started);
  const limits: QuotaLimits = { minute: 5, day: 1000, month: 1000 };
  const roomy: QuotaLimits = { minute: 1_000_000, day: 1_000_000, month: 1_000_000 };

  let admin: Redis;
  let proxy: TcpProxy;
  let client: Redis;
  let redisStore: RedisQuotaStore;
  let store: FailoverQuotaStore;
  let failover: Failover;
  let logs: string[];
  const REDIS_UNREACHABLE_MESSAGE = storeUnreachableMessage('redis');
  const REDIS_BACK_MESSAGE = storeBackMessage('redis');

  beforeAll(async () => {
    admin = createQuotaRedis(REDIS_URL!, undefined, { lazyConnect: true });
    await admin.connect();
  });

  afterAll(async () => {
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `quota:{${run}-*`, count: 1000 }) as AsyncIterable<
      string[]
    >)
      keys.push(...batch);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  beforeEach(async () => {
    const relay = await relayTo(REDIS_URL!, 6379);
    proxy = relay.proxy;
    client = createQuotaRedis(relay.url, undefined, { lazyConnect: true });
    await client.connect();
    redisStore = new RedisQuotaStore(client);
    logs = [];
    const viaStore = redisStore;
    failover = new Failover({
      name: 'redis',
      isReady: () => viaStore.isReady(),
      probe: () => viaStore.ping(),
      log: (_level, msg) => logs.push(msg),
      timeoutMs: 250,
      retryIntervalMs: 200,
    });
    store = new FailoverQuotaStore(redisStore, new MemoryQuotaStore(), failover, undefined, clock);
  });

  afterEach(async () => {
    client.disconnect();
    await proxy.cut();
  });

  /** Consumes, failing the test if the store does not answer at all, whatever state Redis is in. */
  async function promptly(keyId: string, cost = 1, lim = limits): Promise<QuotaDecision> {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the store did not answer')), 5000);
    });
    try {
      return await Promise.race([store.consume(keyId, cost, lim, now), hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function redisCount(keyId: string): Promise<number> {
    return Number((await admin.get(redisStore.keysFor(keyId, now).minute)) ?? 0);
  }

  /** Sends requests for another key until the store counts in Redis again (or gives up). */
  async function untilBackInRedis(): Promise<void> {
    const probe = newKeyId();
    for (let i = 0; i < 100 && !store.countingInSharedStore; i++) {
      await promptly(probe, 1, roomy);
      await failover.settled();
      await sleep(100);
    }
  }

  it('counts in memory while Redis is gone, still enforcing limits, and writes that back on its return', async () => {
    const keyId = newKeyId();
    expect((await promptly(keyId)).admitted).toBe(true);
    expect((await promptly(keyId)).admitted).toBe(true);
    expect(await redisCount(keyId)).toBe(2);

    await proxy.cut();
    const during = [
      await promptly(keyId),
      await promptly(keyId),
      await promptly(keyId),
      await promptly(keyId),
    ];
    // Memory carries on from the 2 Redis had counted: 3 more fit under the limit of 5.
    expect(during.map((d) => d.admitted)).toEqual([true, true, true, false]);
    expect(during[3]).toMatchObject({ exceeded: 'minute' });
    expect(store.countingInSharedStore).toBe(false);
    expect(logs).toEqual([REDIS_UNREACHABLE_MESSAGE]);

    await proxy.start();
    await untilBackInRedis();
    expect(store.countingInSharedStore).toBe(true);
    expect(logs).toEqual([REDIS_UNREACHABLE_MESSAGE, REDIS_BACK_MESSAGE]);

    // Redis now holds the 2 it counted and the 3 memory admitted: the key is at its limit.
    expect(await redisCount(keyId)).toBe(5);
    expect(store.pendingUnits).toBe(0);
    expect(await promptly(keyId)).toMatchObject({ admitted: false, exceeded: 'minute' });
  });

  it('answers from memory when Redis hangs, and returns when it answers again', async () => {
    const keyId = newKeyId();
    expect((await promptly(keyId)).admitted).toBe(true);

    proxy.pause();
    const during = [await promptly(keyId), await promptly(keyId)];
    expect(during.map((d) => [d.admitted, d.usage.minute.used])).toEqual([
      [true, 2],
      [true, 3],
    ]);
    expect(logs).toEqual([REDIS_UNREACHABLE_MESSAGE]);

    proxy.resume();
    await untilBackInRedis();
    expect(store.countingInSharedStore).toBe(true);
    expect(logs).toEqual([REDIS_UNREACHABLE_MESSAGE, REDIS_BACK_MESSAGE]);
    // 1 before, the 2 memory admitted written back, and the call that timed out while held: Redis
    // ran it when the proxy let it through (counted twice, never lost).
    expect(await redisCount(keyId)).toBe(4);
  });
});
