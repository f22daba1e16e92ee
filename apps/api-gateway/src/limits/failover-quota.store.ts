import { randomUUID } from 'node:crypto';
import type { Failover } from './failover';
import type { MemoryQuotaStore } from './memory-quota.store';
import { QUOTA_WINDOWS } from './quota';
import type { QuotaDecision, QuotaLimits, QuotaStore, QuotaWindow } from './quota';
import { assertConsumeArguments, quotaWindows } from './quota-windows';

/** Units one instance admitted from memory for one key and window, to be added to the shared store. */
export interface QuotaBatch {
  /** Unique per batch, so a batch applied twice (a lost reply, a retry) is counted once. */
  readonly id: string;
  readonly keyId: string;
  readonly window: QuotaWindow;
  /** The window's id, as in `quotaWindows`. */
  readonly windowId: string;
  /** End of the window: a batch for a window that has ended is dropped, not written. */
  readonly endMs: number;
  readonly units: number;
}

/** A store shared by every gateway instance (Redis or PostgreSQL) that can take back an outage's units. */
export interface SharedQuotaStore extends QuotaStore {
  reconcile(batches: readonly QuotaBatch[], nowMs: number): Promise<void>;
}

interface LedgerEntry {
  readonly generation: number;
  readonly keyId: string;
  readonly window: QuotaWindow;
  readonly windowId: string;
  readonly endMs: number;
  units: number;
}

/**
 * Counts in the shared store (Redis or PostgreSQL) while it answers, and in this process's memory
 * while it does not (see `Failover`): never unlimited, never a request stuck on the store.
 *
 * What memory admits during an outage is recorded per key and window and written back to the
 * shared store before any call counts there again, each batch under an id the store applies at most
 * once (units of requests that were already past the mode check when it switched follow within a
 * second). The bound on over-admission: memory starts an outage from the usage the store last reported
 * to this instance for the key (a key near its limit stays near it), so in each window one instance
 * admits at most the plan's limit minus that usage during an outage; N instances at most N times
 * that. A key this instance had not seen in the window starts from 0: at most one limit per
 * instance. Afterwards the store holds the true total, so the overshoot is refused until the window
 * resets. A store call that timed out may still be applied later: counted twice, never lost.
 */
export class FailoverQuotaStore implements QuotaStore {
  private readonly ledger = new Map<string, LedgerEntry>();
  /** The generation memory records into; older ones are sealed: their units never change. */
  private generation = 0;
  /** The sealed generation being written back, until the store has confirmed it. */
  private sealed: number | undefined;
  private writing: Promise<void> | undefined;
  private nextFlushMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly shared: SharedQuotaStore,
    private readonly memory: Pick<MemoryQuotaStore, 'consumeNow' | 'raiseTo'>,
    private readonly failover: Failover,
    private readonly instanceId: string = randomUUID(),
    private readonly clock: () => number = Date.now,
  ) {
    // The sealed generation (a try that failed may have left one), then all recorded up to now.
    failover.onRecovery(async () => {
      await this.writeBack();
      if (this.ledger.size > 0) await this.writeBack();
    });
  }

  /** Whether requests are currently counted in the shared store. */
  get countingInSharedStore(): boolean {
    return this.failover.usingSharedStore;
  }

  /** Units admitted from memory and not yet written back (tests, diagnostics). */
  get pendingUnits(): number {
    let n = 0;
    for (const e of this.ledger.values()) n += e.units;
    return n;
  }

  async consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision> {
    // A bad argument is the caller's bug, not an outage: it must throw, not switch to memory.
    assertConsumeArguments(keyId, cost, limits);
    return this.failover.run(
      async () => {
        const decision = await this.shared.consume(keyId, cost, limits, nowMs);
        const { minute, day, month } = decision.usage;
        this.memory.raiseTo(keyId, { minute: minute.used, day: day.used, month: month.used }, nowMs);
        this.flushLeftovers();
        return decision;
      },
      () => {
        const decision = this.memory.consumeNow(keyId, cost, limits, nowMs);
        if (decision.admitted && cost > 0) this.record(keyId, cost, nowMs);
        return decision;
      },
    );
  }

  private record(keyId: string, cost: number, nowMs: number): void {
    const spans = quotaWindows(nowMs);
    for (const window of QUOTA_WINDOWS) {
      const { id: windowId, endMs } = spans[window];
      const slot = `${this.generation}|${windowId}|${keyId}`;
      const entry = this.ledger.get(slot);
      if (entry) entry.units += cost;
      else
        this.ledger.set(slot, { generation: this.generation, keyId, window, windowId, endMs, units: cost });
    }
  }

  /**
   * Requests already past the mode check while recovery switched back to the store were counted in
   * memory after the last write-back: written back in the background, at most once a second, while
   * any remain (their batch ids make a repeat harmless).
   */
  private flushLeftovers(): void {
    if (this.ledger.size === 0 || this.writing || this.clock() < this.nextFlushMs) return;
    this.nextFlushMs = this.clock() + 1000;
    this.writeBack().catch(() => undefined); // kept in the ledger for the next try
  }

  /**
   * Writes back the sealed generation, sealing what memory has recorded so far when none is
   * pending. Units admitted meanwhile go to the open generation, so a batch's units never change
   * once it may have been sent, and a batch that fails is sent again with the same id. A store that
   * answers probes but refuses writes therefore costs one resend of one batch per key and window per
   * try, and the ledger holds at most two generations: it cannot grow with the outage's length.
   */
  private writeBack(): Promise<void> {
    this.writing ??= this.sendSealed().finally(() => (this.writing = undefined));
    return this.writing;
  }

  private async sendSealed(): Promise<void> {
    const sealed = (this.sealed ??= this.generation++);
    const now = this.clock();
    const due: [string, QuotaBatch][] = [];
    for (const [slot, e] of this.ledger) {
      if (e.generation > sealed) continue;
      if (e.endMs <= now) {
        this.ledger.delete(slot);
        continue;
      }
      const id = `${this.instanceId}:${e.generation}:${e.windowId}:${e.keyId}`;
      due.push([
        slot,
        { id, keyId: e.keyId, window: e.window, windowId: e.windowId, endMs: e.endMs, units: e.units },
      ]);
    }
    await this.shared.reconcile(
      due.map(([, batch]) => batch),
      now,
    );
    for (const [slot] of due) this.ledger.delete(slot);
    this.sealed = undefined;
  }
}
