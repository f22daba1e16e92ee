import { randomBytes } from 'node:crypto';
import { QuotaCounterRepository } from '@tcg/persistence';
import { testDataSource, useTestDatabase } from '@tcg/persistence/testing';
import type { DataSource } from 'typeorm';
import { PostgresQuotaStore } from './postgres-quota.store';
import { describeQuotaStoreContract } from './quota-store.contract';
import { quotaWindows } from './quota-windows';

describe('PostgresQuotaStore (PostgreSQL)', () => {
  const run = `pg-${randomBytes(6).toString('hex')}`;
  let n = 0;
  const newKeyId = (): string => `${run}-${++n}`;
  let ds: DataSource;
  let store: PostgresQuotaStore;
  let counters: QuotaCounterRepository;

  // Keys are namespaced by the run: other suites' counters stay.
  useTestDatabase((opened) => (ds = opened), {
    truncate: 'never',
    beforeClose: async () => {
      await ds.query('DELETE FROM quota_counters WHERE key_id LIKE $1', [`${run}-%`]);
      await ds.query('DELETE FROM quota_reconciliations WHERE id LIKE $1', [`${run}-%`]);
    },
  });
  beforeAll(() => {
    counters = new QuotaCounterRepository(ds);
    store = new PostgresQuotaStore(counters);
  });

  describeQuotaStoreContract(() => store, newKeyId);

  it('admits exactly the quota under concurrent requests from separate connections', async () => {
    const keyId = newKeyId();
    const now = Date.now();
    const limits = { minute: 25, day: 1000, month: 1000 };
    const other = await testDataSource();
    try {
      const stores = [store, new PostgresQuotaStore(new QuotaCounterRepository(other))];
      const decisions = await Promise.all(
        Array.from({ length: 60 }, (_, i) => stores[i % 2]!.consume(keyId, 1, limits, now)),
      );
      expect(decisions.filter((d) => d.admitted)).toHaveLength(25);
      expect(await counters.used(keyId, quotaWindows(now).day.id)).toBe(25);
    } finally {
      await other.destroy();
    }
  });

  it('adds a reconciled batch once, however often it is sent', async () => {
    const keyId = newKeyId();
    const now = Date.now();
    const limits = { minute: 100, day: 100, month: 100 };
    await store.consume(keyId, 2, limits, now);
    const day = quotaWindows(now).day;
    const batch = {
      id: `${run}-batch-1`,
      keyId,
      window: 'day' as const,
      windowId: day.id,
      endMs: day.endMs,
      units: 5,
    };
    await store.reconcile([batch]);
    await store.reconcile([batch]);
    expect(await counters.used(keyId, day.id)).toBe(7);
    expect((await store.consume(keyId, 1, limits, now)).usage.day.used).toBe(8);
  });

  it('keeps the day and month counters for a new store over the same database (a restart)', async () => {
    const keyId = newKeyId();
    const now = Date.now();
    const limits = { minute: 100, day: 3, month: 100 };
    for (let i = 0; i < 3; i++) await store.consume(keyId, 1, limits, now);
    const restarted = new PostgresQuotaStore(new QuotaCounterRepository(ds));
    expect(await restarted.consume(keyId, 1, limits, now)).toMatchObject({
      admitted: false,
      exceeded: 'day',
    });
  });
});
