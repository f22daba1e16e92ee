import type { QuotaDecision, QuotaLimits, QuotaStore, QuotaWindow } from './quota';

/**
 * The behaviour every `QuotaStore` owes, run by the memory unit tests and the Redis integration
 * tests alike. `newKeyId` must return a key id no other test uses.
 */
export function describeQuotaStoreContract(getStore: () => QuotaStore, newKeyId: () => string): void {
  const DAY = 86_400;
  // 3.211 s before the minute ends, 41,103.211 s before the day ends, 8 days more to the month end.
  const NOW = Date.parse('2026-11-22T12:34:56.789Z');
  const RESET: Record<QuotaWindow, number> = { minute: 4, day: 41_104, month: 8 * DAY + 41_104 };
  const roomy: QuotaLimits = { minute: 1_000, day: 10_000, month: 100_000 };

  const consume = (keyId: string, cost: number, limits: QuotaLimits, nowMs = NOW): Promise<QuotaDecision> =>
    getStore().consume(keyId, cost, limits, nowMs);
  const usedOf = (d: QuotaDecision): [number, number, number] => [
    d.usage.minute.used,
    d.usage.day.used,
    d.usage.month.used,
  ];

  async function consumeTimes(
    n: number,
    keyId: string,
    cost: number,
    limits: QuotaLimits,
    nowMs = NOW,
  ): Promise<QuotaDecision[]> {
    const decisions: QuotaDecision[] = [];
    for (let i = 0; i < n; i++) decisions.push(await consume(keyId, cost, limits, nowMs));
    return decisions;
  }

  it('admits up to the limit exactly and reports the usage after each request', async () => {
    const keyId = newKeyId();
    const limits = { ...roomy, minute: 5 };
    const decisions = await consumeTimes(7, keyId, 1, limits);
    expect(decisions.map((d) => d.admitted)).toEqual([true, true, true, true, true, false, false]);
    expect(decisions.map((d) => d.usage.minute.used)).toEqual([1, 2, 3, 4, 5, 5, 5]);
    expect(decisions[0]).toEqual({
      admitted: true,
      usage: {
        minute: { limit: 5, used: 1, resetSeconds: RESET.minute },
        day: { limit: roomy.day, used: 1, resetSeconds: RESET.day },
        month: { limit: roomy.month, used: 1, resetSeconds: RESET.month },
      },
    });
  });

  it('counts a refused request in no window', async () => {
    const keyId = newKeyId();
    const limits = { minute: 2, day: 10, month: 10 };
    await consumeTimes(2, keyId, 1, limits);
    const refused = await consumeTimes(3, keyId, 1, limits);
    expect(refused.map(usedOf)).toEqual([
      [2, 2, 2],
      [2, 2, 2],
      [2, 2, 2],
    ]);
    // The day and month counters did not move either: the next minute starts from 2.
    expect(usedOf(await consume(keyId, 1, limits, NOW + 60_000))).toEqual([1, 3, 3]);
  });

  it('refuses a cost larger than what remains and leaves the remainder usable', async () => {
    const keyId = newKeyId();
    const limits = { ...roomy, minute: 5 };
    expect(usedOf(await consume(keyId, 3, limits))).toEqual([3, 3, 3]);
    const refused = await consume(keyId, 3, limits);
    expect(refused).toMatchObject({ admitted: false, exceeded: 'minute', retryAfterSeconds: RESET.minute });
    expect(usedOf(refused)).toEqual([3, 3, 3]);
    const last = await consume(keyId, 2, limits);
    expect(last.admitted).toBe(true);
    expect(usedOf(last)).toEqual([5, 5, 5]);
  });

  it.each<[QuotaWindow, QuotaLimits, number]>([
    ['minute', { minute: 5, day: 100, month: 1000 }, 5],
    ['day', { minute: 10, day: 3, month: 1000 }, 3],
    ['month', { minute: 10, day: 100, month: 2 }, 2],
  ])('trips the %s limit with its own window and Retry-After', async (window, limits, allowed) => {
    const keyId = newKeyId();
    const decisions = await consumeTimes(allowed + 1, keyId, 1, limits);
    expect(decisions.filter((d) => d.admitted)).toHaveLength(allowed);
    const refused = decisions[allowed]!;
    expect(refused).toMatchObject({ admitted: false, exceeded: window, retryAfterSeconds: RESET[window] });
    expect(refused.usage[window]).toEqual({
      limit: limits[window],
      used: allowed,
      resetSeconds: RESET[window],
    });
  });

  it('names the window that resets last when several are exhausted', async () => {
    const keyId = newKeyId();
    const limits = { minute: 3, day: 3, month: 1000 };
    await consumeTimes(3, keyId, 1, limits);
    expect(await consume(keyId, 1, limits)).toMatchObject({
      admitted: false,
      exceeded: 'day',
      retryAfterSeconds: RESET.day,
    });
  });

  it.each<[QuotaWindow, QuotaLimits, string, [number, number, number]]>([
    ['minute', { minute: 2, day: 100, month: 1000 }, '2026-11-22T12:35:00.000Z', [1, 3, 3]],
    ['day', { minute: 10, day: 2, month: 1000 }, '2026-11-23T00:00:00.000Z', [1, 1, 3]],
    ['month', { minute: 10, day: 100, month: 2 }, '2026-12-01T00:00:00.000Z', [1, 1, 1]],
  ])('starts a new %s window from zero', async (_window, limits, next, used) => {
    const keyId = newKeyId();
    await consumeTimes(3, keyId, 1, limits);
    const decision = await consume(keyId, 1, limits, Date.parse(next));
    expect(decision.admitted).toBe(true);
    expect(usedOf(decision)).toEqual(used);
  });

  it('counts each key id on its own', async () => {
    const [a, b] = [newKeyId(), newKeyId()];
    const limits = { ...roomy, minute: 1 };
    expect((await consume(a, 1, limits)).admitted).toBe(true);
    expect((await consume(a, 1, limits)).admitted).toBe(false);
    expect((await consume(b, 1, limits)).admitted).toBe(true);
  });

  it('reports the usage without counting for a cost of 0', async () => {
    const keyId = newKeyId();
    const limits = { ...roomy, minute: 2 };
    await consumeTimes(2, keyId, 1, limits);
    const decision = await consume(keyId, 0, limits);
    expect(decision.admitted).toBe(true);
    expect(usedOf(decision)).toEqual([2, 2, 2]);
  });

  it('rejects arguments it cannot count', async () => {
    await expect(consume(newKeyId(), 1.5, roomy)).rejects.toThrow(RangeError);
    await expect(consume('', 1, roomy)).rejects.toThrow(RangeError);
  });
}
