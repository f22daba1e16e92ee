import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { quotaWindows } from './quota-windows';
import { describeQuotaStoreContract } from './quota-store.contract';
import { createQuotaRedis, RedisQuotaStore } from './redis-quota.store';

const REDIS_URL = process.env['REDIS_URL'];
if (!REDIS_URL) process.stdout.write('REDIS_URL not set: Redis quota tests skipped\n');

(REDIS_URL ? describe : describe.skip)('RedisQuotaStore (Redis at REDIS_URL)', () => {
  // Every key of this run carries the run id, so parallel runs do not collide and cleanup is exact.
  const run = `test-${randomBytes(6).toString('hex')}`;
  let n = 0;
  const newKeyId = (): string => `${run}-${++n}`;
  const clients: Redis[] = [];
  let stores: RedisQuotaStore[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 4; i++) clients.push(createQuotaRedis(REDIS_URL!, undefined, { lazyConnect: true }));
    await Promise.all(clients.map((c) => c.connect()));
    stores = clients.map((c) => new RedisQuotaStore(c));
  });

  afterAll(async () => {
    const admin = clients[0];
    if (admin) {
      const keys: string[] = [];
      for await (const batch of admin.scanStream({ match: `quota:{${run}-*`, count: 1000 }) as AsyncIterable<
        string[]
      >)
        keys.push(...batch);
      if (keys.length > 0) await admin.del(...keys);
    }
    await Promise.all(clients.map((c) => c.quit()));
  });

  describeQuotaStoreContract(
    () => stores[0]!,
    () => newKeyId(),
  );

  it.each([
    [1, 100, 100],
    [2, 101, 50],
  ])(
    'under 1,000 concurrent requests of cost %i, a minute limit of %i admits exactly %i',
    async (cost, limit, admitted) => {
      const keyId = newKeyId();
      const now = Date.now();
      const limits = { minute: limit, day: 1_000_000, month: 1_000_000 };
      const decisions = await Promise.all(
        Array.from({ length: 1000 }, (_, i) => stores[i % stores.length]!.consume(keyId, cost, limits, now)),
      );
      expect(decisions.filter((d) => d.admitted)).toHaveLength(admitted);
      const refused = decisions.filter((d) => !d.admitted);
      expect(refused.every((d) => d.exceeded === 'minute')).toBe(true);
      const keys = stores[0]!.keysFor(keyId, now);
      expect(await clients[0]!.mget(keys.minute, keys.day, keys.month)).toEqual(
        Array(3).fill(String(admitted * cost)),
      );
    },
  );

  it('leaves the counters untouched when it refuses', async () => {
    const keyId = newKeyId();
    const now = Date.now();
    const limits = { minute: 10, day: 4, month: 100 };
    const store = stores[1]!;
    await store.consume(keyId, 3, limits, now);
    const keys = store.keysFor(keyId, now);
    const read = (): Promise<(string | null)[]> => clients[2]!.mget(keys.minute, keys.day, keys.month);
    expect(await read()).toEqual(['3', '3', '3']);
    expect((await store.consume(keyId, 2, limits, now)).exceeded).toBe('day');
    expect(await read()).toEqual(['3', '3', '3']);
    expect((await store.consume(keyId, 1, limits, now)).admitted).toBe(true);
    expect(await read()).toEqual(['4', '4', '4']);
  });

  it('writes no key for a refused first request', async () => {
    const keyId = newKeyId();
    const now = Date.now();
    expect((await stores[0]!.consume(keyId, 2, { minute: 1, day: 1, month: 1 }, now)).admitted).toBe(false);
    const keys = stores[0]!.keysFor(keyId, now);
    expect(await clients[0]!.exists(keys.minute, keys.day, keys.month)).toBe(0);
  });

  it('tags the three counters with the key id (one cluster slot) and expires them after their window', async () => {
    const keyId = newKeyId();
    const margin = 10;
    const store = new RedisQuotaStore(clients[3]!, { ttlMarginSeconds: margin });
    const now = Date.now();
    await store.consume(keyId, 1, { minute: 10, day: 10, month: 10 }, now);
    const keys = store.keysFor(keyId, now);
    const spans = quotaWindows(now);
    expect(keys.minute).toBe(`quota:{${keyId}}:${spans.minute.id}`);
    expect(keys.day).toBe(`quota:{${keyId}}:${spans.day.id}`);
    expect(keys.month).toBe(`quota:{${keyId}}:${spans.month.id}`);
    for (const w of ['minute', 'day', 'month'] as const) {
      const ttl = await clients[3]!.ttl(keys[w]);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(spans[w].resetSeconds + margin);
    }
  });

  it('fails fast while the client is disconnected', async () => {
    const client = createQuotaRedis(REDIS_URL!, undefined, { lazyConnect: true });
    const store = new RedisQuotaStore(client);
    expect(store.isReady()).toBe(false);
    await expect(store.consume(newKeyId(), 1, { minute: 1, day: 1, month: 1 }, Date.now())).rejects.toThrow();
    client.disconnect();
  });
});
