import { Failover, storeBackMessage, storeUnreachableMessage, type FailoverLogger } from './failover';
import { FailoverQuotaStore, type QuotaBatch, type SharedQuotaStore } from './failover-quota.store';
import { MemoryQuotaStore } from './memory-quota.store';
import type { QuotaDecision, QuotaLimits } from './quota';
import { quotaWindows } from './quota-windows';

/** Stands in for a shared store: counts in its own memory until told to fail or hang; applies a batch id once. */
class FakeSharedStore implements SharedQuotaStore {
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  ready = true;
  calls = 0;
  readonly applied = new Set<string>();
  readonly counts = new MemoryQuotaStore();

  consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision> {
    this.calls++;
    if (this.mode === 'fail') return Promise.reject(new Error('Connection is closed.'));
    if (this.mode === 'hang') return new Promise<QuotaDecision>(() => undefined);
    return this.counts.consume(keyId, cost, limits, nowMs);
  }

  async reconcile(batches: readonly QuotaBatch[], nowMs: number): Promise<void> {
    if (this.mode !== 'ok') throw new Error('Connection is closed.');
    for (const b of batches) {
      if (this.applied.has(b.id)) continue;
      this.applied.add(b.id);
      const used = this.usedNow(b.keyId, nowMs);
      this.counts.raiseTo(b.keyId, { ...used, [b.window]: used[b.window] + b.units }, nowMs);
    }
  }

  usedNow(keyId: string, nowMs: number): { minute: number; day: number; month: number } {
    const d = this.counts.consumeNow(keyId, 0, { minute: 1e9, day: 1e9, month: 1e9 }, nowMs);
    return { minute: d.usage.minute.used, day: d.usage.day.used, month: d.usage.month.used };
  }
}

describe('FailoverQuotaStore', () => {
  const limits = { minute: 5, day: 100, month: 1000 };
  const now = Date.parse('2026-11-22T12:34:56.789Z');
  let shared: FakeSharedStore;
  let logs: [string, string][];
  let clockMs: number;
  let failover: Failover;
  let store: FailoverQuotaStore;

  beforeEach(() => {
    shared = new FakeSharedStore();
    logs = [];
    clockMs = now;
    const log: FailoverLogger = (level, msg) => logs.push([level, msg]);
    failover = new Failover({
      name: 'redis',
      isReady: () => shared.ready,
      probe: () => (shared.mode === 'ok' ? Promise.resolve() : Promise.reject(new Error('down'))),
      log,
      timeoutMs: 20,
      retryIntervalMs: 1000,
      clock: () => clockMs,
    });
    store = new FailoverQuotaStore(shared, new MemoryQuotaStore(), failover, 'instance-a', () => clockMs);
  });

  const consume = (cost = 1): Promise<QuotaDecision> => store.consume('k', cost, limits, now);
  /** Lets the retry interval pass, sends the request that starts the recovery, and waits for it. */
  async function recover(): Promise<void> {
    clockMs += 1000;
    await consume(0);
    await failover.settled();
  }

  it('counts in the shared store while it answers', async () => {
    await consume();
    await consume();
    expect(shared.calls).toBe(2);
    expect(shared.usedNow('k', now).minute).toBe(2);
    expect(logs).toEqual([]);
    expect(store.countingInSharedStore).toBe(true);
  });

  it('counts in memory when the store fails, from the usage it last reported, and logs it once', async () => {
    await consume(2);
    shared.mode = 'fail';
    const decisions = [await consume(), await consume(), await consume()];
    expect(decisions.map((d) => [d.admitted, d.usage.minute.used])).toEqual([
      [true, 3],
      [true, 4],
      [true, 5],
    ]);
    expect(await consume()).toMatchObject({ admitted: false, exceeded: 'minute' });
    expect(logs).toEqual([['warn', storeUnreachableMessage('redis')]]);
    expect(store.countingInSharedStore).toBe(false);
    expect(store.pendingUnits).toBe(3 * 3); // three units, in each of the three windows
  });

  it('does not call a client that is not connected', async () => {
    shared.ready = false;
    expect((await consume()).admitted).toBe(true);
    expect(shared.calls).toBe(0);
    expect(logs).toEqual([['warn', storeUnreachableMessage('redis')]]);
  });

  it('answers from memory when the store hangs', async () => {
    shared.mode = 'hang';
    expect((await consume()).admitted).toBe(true);
    expect(logs).toEqual([['warn', storeUnreachableMessage('redis')]]);
  });

  it('writes what memory admitted back to the store before counting there again', async () => {
    await consume(2);
    shared.mode = 'fail';
    await consume();
    await consume();
    shared.mode = 'ok';
    await consume(); // still inside the retry interval: memory, no probe
    expect(shared.calls).toBe(2);
    await recover();
    expect(store.countingInSharedStore).toBe(true);
    expect(shared.usedNow('k', now)).toEqual({ minute: 5, day: 5, month: 5 });
    expect(store.pendingUnits).toBe(0);
    expect(await consume()).toMatchObject({ admitted: false, exceeded: 'minute' });
    expect(logs.map(([, m]) => m)).toEqual([storeUnreachableMessage('redis'), storeBackMessage('redis')]);
  });

  it('stays in memory while the write-back fails, and applies each batch once when it succeeds', async () => {
    shared.mode = 'fail';
    await consume();
    await recover(); // probe fails: still memory
    expect(store.countingInSharedStore).toBe(false);
    shared.mode = 'ok';
    const reconcile = jest.spyOn(shared, 'reconcile');
    reconcile.mockRejectedValueOnce(new Error('lost reply'));
    await recover();
    expect(store.countingInSharedStore).toBe(false);
    await consume(); // a unit of the next generation
    await recover();
    expect(store.countingInSharedStore).toBe(true);
    // The failed batch again, under the same ids, then the unit recorded after it.
    expect(reconcile).toHaveBeenCalledTimes(3);
    const ids = (call: number) => reconcile.mock.calls[call]![0].map((b) => b.id);
    expect(ids(1)).toEqual(ids(0));
    expect(ids(2)).toHaveLength(3);
    expect(ids(2).filter((id) => ids(0).includes(id))).toEqual([]);
    expect(shared.usedNow('k', now).minute).toBe(2);
  });

  it('keeps one batch per key and window pending however long a store refuses writes but answers probes', async () => {
    const roomy = { minute: 1000, day: 1000, month: 1000 };
    shared.mode = 'fail';
    await store.consume('k', 1, roomy, now);
    shared.mode = 'ok';
    const reconcile = jest.spyOn(shared, 'reconcile').mockRejectedValue(new Error('OOM command not allowed'));
    for (let i = 0; i < 50; i++) {
      await store.consume('k', 1, roomy, now);
      await recover();
    }
    expect(store.countingInSharedStore).toBe(false);
    // Each try resends the one sealed batch per window, not one per try so far.
    expect(reconcile).toHaveBeenCalledTimes(50);
    for (const [batches] of reconcile.mock.calls) expect(batches.length).toBeLessThanOrEqual(3);
    reconcile.mockRestore();
    await recover();
    expect(store.countingInSharedStore).toBe(true);
    expect(shared.usedNow('k', now)).toMatchObject({ day: 51, month: 51 });
    expect(store.pendingUnits).toBe(0);
  });

  it('writes back units memory admitted while the write-back itself was in flight', async () => {
    shared.mode = 'fail';
    await consume();
    shared.mode = 'ok';
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const original = shared.reconcile.bind(shared);
    const reconcile = jest
      .spyOn(shared, 'reconcile')
      .mockImplementationOnce(async (b, t) => {
        await gate;
        return original(b, t);
      })
      .mockImplementationOnce(async (b, t) => {
        await gate;
        return original(b, t);
      });
    clockMs += 1000;
    await consume(0); // starts the recovery, which waits on the gate
    await consume(); // counted in memory while the first batch is in flight
    release();
    await failover.settled();
    await consume(); // the first recovery seals what was recorded while it ran, or this flushes it
    await new Promise((r) => setImmediate(r));
    expect(store.pendingUnits).toBe(0);
    expect(shared.usedNow('k', now)).toEqual({ minute: 3, day: 3, month: 3 });
    expect(reconcile.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('drops units of a window that ended before the store came back', async () => {
    shared.mode = 'fail';
    await consume(3);
    shared.mode = 'ok';
    clockMs = now + 60_000; // the minute is over; day and month are not
    await consume(0);
    await failover.settled();
    const later = now + 60_000;
    expect(shared.usedNow('k', later)).toEqual({ minute: 0, day: 3, month: 3 });
    expect(quotaWindows(later).minute.id).not.toBe(quotaWindows(now).minute.id);
  });

  it('logs each outage and each return once', async () => {
    for (const mode of ['fail', 'ok', 'fail', 'ok'] as const) {
      shared.mode = mode;
      await recover();
      await consume(0);
    }
    expect(logs.map(([, msg]) => msg)).toEqual([
      storeUnreachableMessage('redis'),
      storeBackMessage('redis'),
      storeUnreachableMessage('redis'),
      storeBackMessage('redis'),
    ]);
  });

  it("over-admits during an outage by at most each instance's in-memory share (limit minus what it last saw)", async () => {
    // Three instances over one shared store; they last saw the key at different usages.
    const instances = ['a', 'b', 'c'].map((name) => {
      const f = new Failover({
        name: 'redis',
        isReady: () => shared.ready,
        probe: () => (shared.mode === 'ok' ? Promise.resolve() : Promise.reject(new Error('down'))),
        log: () => undefined,
        timeoutMs: 20,
        retryIntervalMs: 1000,
        clock: () => clockMs,
      });
      return { f, store: new FailoverQuotaStore(shared, new MemoryQuotaStore(), f, name, () => clockMs) };
    });
    const lim = { minute: 10, day: 1000, month: 1000 };
    const take = (i: number): Promise<QuotaDecision> => instances[i]!.store.consume('k', 1, lim, now);
    await take(0); // a saw 1
    await take(1);
    await take(1); // b saw 3
    await take(0);
    await take(0); // a saw 5; c never saw the key
    shared.mode = 'fail';
    const admittedDuring = [0, 0, 0];
    for (let round = 0; round < 15; round++)
      for (let i = 0; i < 3; i++) if ((await take(i)).admitted) admittedDuring[i]!++;
    expect(admittedDuring).toEqual([10 - 5, 10 - 3, 10 - 0]);

    shared.mode = 'ok';
    clockMs += 1000;
    for (let i = 0; i < 3; i++) {
      await instances[i]!.store.consume('k', 0, lim, now);
      await instances[i]!.f.settled();
    }
    // The shared store now holds every unit admitted: 5 before, 22 during; 17 over the limit,
    // within the bound of the three shares (5 + 7 + 10), and refused until the window resets.
    expect(shared.usedNow('k', now).minute).toBe(27);
    for (let i = 0; i < 3; i++) expect((await take(i)).admitted).toBe(false);
  });

  it('throws on a bad argument without blaming the store', async () => {
    await expect(store.consume('k', -1, limits, now)).rejects.toThrow(RangeError);
    expect(shared.calls).toBe(0);
    expect(logs).toEqual([]);
  });
});
