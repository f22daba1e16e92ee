import fc from 'fast-check';
import { MemoryQuotaStore } from './memory-quota.store';
import { describeQuotaStoreContract } from './quota-store.contract';

describe('MemoryQuotaStore', () => {
  let store = new MemoryQuotaStore();
  let n = 0;
  beforeEach(() => {
    store = new MemoryQuotaStore();
  });

  describeQuotaStoreContract(
    () => store,
    () => `key-${++n}`,
  );

  it('admits exactly what fits, whatever the sequence of costs', () => {
    fc.assert(
      fc.property(
        fc.record({ minute: fc.nat(30), day: fc.nat(30), month: fc.nat(30) }),
        fc.array(fc.nat(5), { maxLength: 40 }),
        (limits, costs) => {
          const memory = new MemoryQuotaStore();
          const now = Date.parse('2026-11-22T12:00:00.000Z');
          let used = 0;
          for (const cost of costs) {
            const d = memory.consumeNow('k', cost, limits, now);
            const fits = used + cost <= Math.min(limits.minute, limits.day, limits.month);
            expect(d.admitted).toBe(fits);
            if (fits) used += cost;
            expect([d.usage.minute.used, d.usage.day.used, d.usage.month.used]).toEqual([used, used, used]);
          }
        },
      ),
    );
  });

  it('forgets the counters of windows that have ended', () => {
    const limits = { minute: 10, day: 100, month: 1000 };
    const t0 = Date.parse('2026-11-30T23:58:30.000Z');
    for (let i = 0; i < 50; i++) store.consumeNow(`key-${i}`, 1, limits, t0);
    expect(store.size).toBe(150);
    // Two minutes on, in a new month: every old counter has expired and is swept.
    store.consumeNow('key-0', 1, limits, t0 + 120_000);
    expect(store.size).toBe(3);
  });

  it('keeps the day and month counters while only the minute has ended', () => {
    const limits = { minute: 10, day: 100, month: 1000 };
    const t0 = Date.parse('2026-11-22T12:00:00.000Z');
    for (let i = 0; i < 10; i++) store.consumeNow(`key-${i}`, 1, limits, t0);
    store.consumeNow('other', 1, limits, t0 + 120_000);
    expect(store.size).toBe(10 * 2 + 3);
    expect(store.consumeNow('key-1', 1, limits, t0 + 120_000).usage.day.used).toBe(2);
  });

  it('raises counters to what another store reported, never lowers them', () => {
    const limits = { minute: 10, day: 100, month: 1000 };
    const now = Date.parse('2026-11-22T12:00:00.000Z');
    store.consumeNow('k', 4, limits, now);
    store.raiseTo('k', { minute: 2, day: 50, month: 998 }, now);
    const d = store.consumeNow('k', 1, limits, now);
    expect([d.usage.minute.used, d.usage.day.used, d.usage.month.used]).toEqual([5, 51, 999]);
    expect(store.consumeNow('k', 2, limits, now)).toMatchObject({ admitted: false, exceeded: 'month' });
  });
});
