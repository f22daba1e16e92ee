import { QUOTA_WINDOWS } from './quota';
import type { QuotaDecision, QuotaLimits, QuotaStore, QuotaWindow } from './quota';
import {
  assertConsumeArguments,
  buildQuotaDecision,
  exceededWindows,
  quotaWindows,
  type QuotaWindowSpans,
} from './quota-windows';

interface Counter {
  count: number;
  /** End of the counter's window: past it the counter is never read again. */
  readonly endMs: number;
}

/** How often, in the callers' own clock, expired counters are swept out. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Per-process quota counters: what the gateway counts on when it has no Redis, or while Redis is
 * unreachable. Each call checks and counts synchronously, so it is atomic within the process;
 * several gateway instances each count on their own.
 *
 * Memory stays bounded without a timer: counters are keyed by window id, so a past window's
 * counter is never read again, and at most once a minute (of the `nowMs` the callers pass) a sweep
 * drops every counter whose window has ended. What remains is at most three counters per key id
 * active in the current month.
 */
export class MemoryQuotaStore implements QuotaStore {
  private readonly counters = new Map<string, Counter>();
  private nextSweepMs = Number.NEGATIVE_INFINITY;

  // async so that a bad argument rejects, as it does with the other stores.
  async consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision> {
    return this.consumeNow(keyId, cost, limits, nowMs);
  }

  /** The synchronous core of `consume`: nothing can interleave between the check and the count. */
  consumeNow(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): QuotaDecision {
    assertConsumeArguments(keyId, cost, limits);
    this.sweepIfDue(nowMs);
    const spans = quotaWindows(nowMs);
    const used = this.read(keyId, spans);
    const exceeded = exceededWindows(used, cost, limits);
    if (exceeded.length > 0) return buildQuotaDecision(used, exceeded, limits, spans);
    for (const w of QUOTA_WINDOWS) this.counter(keyId, spans, w).count += cost;
    return buildQuotaDecision(this.read(keyId, spans), [], limits, spans);
  }

  /**
   * Raises this key's counters to at least `used` (never lowers them). The failover store feeds
   * it what Redis last reported, so an outage starts from the shared usage, not from zero.
   */
  raiseTo(keyId: string, used: Readonly<Record<QuotaWindow, number>>, nowMs: number): void {
    this.sweepIfDue(nowMs);
    const spans = quotaWindows(nowMs);
    for (const w of QUOTA_WINDOWS) {
      const counter = this.counter(keyId, spans, w);
      counter.count = Math.max(counter.count, used[w]);
    }
  }

  /** How many counters are held (for tests and diagnostics). */
  get size(): number {
    return this.counters.size;
  }

  /** Drops every counter whose window ended at or before `nowMs`. */
  sweep(nowMs: number): void {
    for (const [key, counter] of this.counters) if (counter.endMs <= nowMs) this.counters.delete(key);
  }

  private sweepIfDue(nowMs: number): void {
    if (nowMs < this.nextSweepMs) return;
    this.nextSweepMs = nowMs + SWEEP_INTERVAL_MS;
    this.sweep(nowMs);
  }

  private read(keyId: string, spans: QuotaWindowSpans): Record<QuotaWindow, number> {
    const get = (w: QuotaWindow): number => this.counters.get(counterKey(keyId, spans, w))?.count ?? 0;
    return { minute: get('minute'), day: get('day'), month: get('month') };
  }

  private counter(keyId: string, spans: QuotaWindowSpans, w: QuotaWindow): Counter {
    const key = counterKey(keyId, spans, w);
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { count: 0, endMs: spans[w].endMs };
      this.counters.set(key, counter);
    }
    return counter;
  }
}

// The window id leads, so a key id containing ':' cannot collide with another key's counter.
const counterKey = (keyId: string, spans: QuotaWindowSpans, w: QuotaWindow): string =>
  `${spans[w].id}|${keyId}`;
