import { randomBytes, randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { DownloadLeaseRepository } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import type { DataSource } from 'typeorm';
import {
  DownloadLeases,
  type DownloadLeaseStore,
  MemoryDownloadLeaseStore,
  PostgresDownloadLeaseStore,
  RedisDownloadLeaseStore,
} from './download-leases';
import { Failover } from './failover';
import { createQuotaRedis } from './redis-quota.store';

const TTL = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What every shared lease store does, on keys `newKeyId` makes unique to the run. */
function describeLeaseStoreContract(store: () => DownloadLeaseStore, newKeyId: () => string): void {
  it('gives a key its limit of places across instances, and the next one back when one ends', async () => {
    const key = newKeyId();
    const leases = Array.from({ length: 5 }, () => randomUUID());
    // Four instances asking at once for the same key, limit 3.
    const taken = await Promise.all(leases.map((l) => store().take(key, l, 3, 1_000, TTL)));
    expect(taken.filter(Boolean)).toHaveLength(3);
    const holder = leases[taken.indexOf(true)]!;
    await store().release(key, holder);
    expect(await store().take(key, randomUUID(), 3, 1_000, TTL)).toBe(true);
    expect(await store().take(key, randomUUID(), 3, 1_000, TTL)).toBe(false);
    // Another key is not touched.
    expect(await store().take(newKeyId(), randomUUID(), 3, 1_000, TTL)).toBe(true);
  });

  it('frees the places of an instance that died once their leases expire, not those renewed', async () => {
    // On the clock: Redis scores leases by its own, whatever time the instance passes.
    const ttl = 1_000;
    const key = newKeyId();
    const [dead, alive] = [randomUUID(), randomUUID()];
    expect(await store().take(key, dead, 2, Date.now(), ttl)).toBe(true);
    expect(await store().take(key, alive, 2, Date.now(), ttl)).toBe(true);
    await sleep(ttl / 2);
    await store().renew(key, alive, Date.now(), ttl);
    expect(await store().take(key, randomUUID(), 2, Date.now(), ttl)).toBe(false);
    // Past the first lease's expiry: the dead instance's place is free, the renewed one is held.
    await sleep(ttl / 2 + 100);
    expect(await store().take(key, randomUUID(), 2, Date.now(), ttl)).toBe(true);
    expect(await store().take(key, randomUUID(), 2, Date.now(), ttl)).toBe(false);
  });
}

describe('PostgresDownloadLeaseStore (PostgreSQL)', () => {
  const run = `pg-dl-${randomBytes(6).toString('hex')}`;
  let n = 0;
  let ds: DataSource;
  let store: PostgresDownloadLeaseStore;

  // Keys are namespaced by the run: other suites' counters stay.
  useTestDatabase((opened) => (ds = opened), {
    truncate: 'never',
    beforeClose: async () => {
      await ds.query('DELETE FROM quota_counters WHERE key_id LIKE $1', [`downloads:${run}-%`]);
    },
  });
  beforeAll(() => {
    store = new PostgresDownloadLeaseStore(new DownloadLeaseRepository(ds));
  });

  describeLeaseStoreContract(
    () => store,
    () => `${run}-${++n}`,
  );
});

const REDIS_URL = process.env['REDIS_URL'];
if (!REDIS_URL) process.stdout.write('REDIS_URL not set: Redis download lease tests skipped\n');

(REDIS_URL ? describe : describe.skip)('RedisDownloadLeaseStore (Redis at REDIS_URL)', () => {
  const run = `test-dl-${randomBytes(6).toString('hex')}`;
  let n = 0;
  let client: Redis;
  let store: RedisDownloadLeaseStore;

  beforeAll(async () => {
    client = createQuotaRedis(REDIS_URL!, undefined, { lazyConnect: true });
    await client.connect();
    store = new RedisDownloadLeaseStore(client);
  });
  afterAll(async () => {
    const keys = await client.keys(`downloads:{${run}-*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });

  describeLeaseStoreContract(
    () => store,
    () => `${run}-${++n}`,
  );

  it('scores leases by the Redis server’s clock: an instance running late cannot expire them early', async () => {
    const key = `${run}-${++n}`;
    // An instance whose clock is ten minutes behind takes the key's one place…
    expect(await store.take(key, randomUUID(), 1, Date.now() - 600_000, TTL)).toBe(true);
    // …and one on time finds it held, not expired.
    expect(await store.take(key, randomUUID(), 1, Date.now(), TTL)).toBe(false);
  });

  it('gives a lease back in Redis when its take answered only after the instance stopped waiting', async () => {
    const key = `${run}-${++n}`;
    // The take runs in Redis; its answer reaches the instance after the failover's deadline.
    const late: DownloadLeaseStore = {
      take: async (...args) => {
        const taken = await store.take(...args);
        await sleep(200);
        return taken;
      },
      renew: (...args) => store.renew(...args),
      release: (...args) => store.release(...args),
    };
    const failover = new Failover({
      name: 'redis',
      isReady: () => true,
      probe: () => client.ping(),
      log: () => undefined,
      timeoutMs: 50,
    });
    const leases = new DownloadLeases(late, new MemoryDownloadLeaseStore(), failover, TTL);
    // Counted in this instance's memory meanwhile…
    const lease = await leases.take(key, 1);
    expect(lease).toBeDefined();
    await sleep(300);
    // …and not also held in Redis until the lease's expiry.
    expect(await client.zcard(`downloads:{${key}}`)).toBe(0);
    lease!.release();
  });
});
