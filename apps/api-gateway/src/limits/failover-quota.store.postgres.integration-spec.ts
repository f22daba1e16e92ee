import { randomBytes } from 'node:crypto';
import { createDataSource, QuotaCounterRepository } from '@tcg/persistence';
import { relayTo, TcpProxy, workerDatabaseUrl } from '@tcg/persistence/testing';
import type { DataSource } from 'typeorm';
import { Failover } from './failover';
import { FailoverQuotaStore } from './failover-quota.store';
import { MemoryQuotaStore } from './memory-quota.store';
import { PostgresQuotaStore } from './postgres-quota.store';
import { quotaWindows } from './quota-windows';

describe('FailoverQuotaStore over PostgreSQL (cut and restored through a proxy)', () => {
  const run = `pgf-${randomBytes(6).toString('hex')}`;
  // A second into the current minute, with the store's clock running on from it: a test that crosses
  // a minute (or midnight) on the wall clock still writes memory's units back into \`now\`'s windows.
  const now = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  const started = Date.now();
  const clock = (): number => now + (Date.now() - started);
  let proxy: TcpProxy;
  let ds: DataSource;
  let direct: DataSource;
  let failover: Failover;
  let store: FailoverQuotaStore;

  beforeAll(async () => {
    const relay = await relayTo(workerDatabaseUrl(), 5432);
    proxy = relay.proxy;
    ds = await createDataSource({
      url: relay.url,
      poolSize: 2,
      applicationName: 'test',
    }).initialize();
    direct = await createDataSource({
      url: workerDatabaseUrl(),
      poolSize: 1,
      applicationName: 'test',
    }).initialize();
    failover = new Failover({
      name: 'postgres',
      isReady: () => ds.isInitialized,
      probe: () => ds.query('SELECT 1'),
      log: () => undefined,
      timeoutMs: 1000,
      retryIntervalMs: 100,
    });
    store = new FailoverQuotaStore(
      new PostgresQuotaStore(new QuotaCounterRepository(ds)),
      new MemoryQuotaStore(),
      failover,
      undefined,
      clock,
    );
  });
  afterAll(async () => {
    await ds.destroy().catch(() => undefined);
    await direct.query('DELETE FROM quota_counters WHERE key_id LIKE $1', [`${run}%`]);
    await direct.destroy();
    await proxy.cut();
  });

  it('counts in memory while PostgreSQL is unreachable and writes those units back when it returns', async () => {
    const keyId = `${run}-a`;
    const limits = { minute: 1000, day: 8, month: 1000 };
    const day = quotaWindows(now).day.id;
    const admitted = async (): Promise<boolean> => (await store.consume(keyId, 1, limits, now)).admitted;

    for (let i = 0; i < 3; i++) expect(await admitted()).toBe(true);
    await proxy.cut();
    const during = [];
    for (let i = 0; i < 7; i++) during.push(await admitted());
    // From the 3 PostgreSQL counted: 5 more, then refused — never unlimited.
    expect(during).toEqual([true, true, true, true, true, false, false]);
    expect(store.countingInSharedStore).toBe(false);

    await proxy.start();
    for (let i = 0; i < 100 && !store.countingInSharedStore; i++) {
      await store.consume(keyId, 0, limits, now);
      await failover.settled();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(store.countingInSharedStore).toBe(true);
    expect(await new QuotaCounterRepository(direct).used(keyId, day)).toBe(8);
    expect(await store.consume(keyId, 1, limits, now)).toMatchObject({ admitted: false, exceeded: 'day' });
  });
});
