import { QuotaCounterRepository } from '@tcg/persistence';
import { QUOTA_WINDOWS, type QuotaDecision, type QuotaLimits, type QuotaWindow } from './quota';
import type { QuotaBatch, SharedQuotaStore } from './failover-quota.store';
import { assertConsumeArguments, buildQuotaDecision, quotaWindows } from './quota-windows';

/** Seconds a counter outlives its window, as in Redis: a clock a little behind still finds it. */
const TTL_MARGIN_MS = 10_000;

/**
 * Quota counters in PostgreSQL: what `npm start` counts in without Redis, so day and month usage
 * survive a gateway restart. One statement checks and counts all three windows under row locks
 * (`tcg_quota_consume`), so under any concurrency a quota of N admits exactly N units. Failures
 * reject; `FailoverQuotaStore` counts in memory meanwhile and hands the units back via `reconcile`.
 */
export class PostgresQuotaStore implements SharedQuotaStore {
  constructor(private readonly counters: QuotaCounterRepository) {}

  async consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision> {
    assertConsumeArguments(keyId, cost, limits);
    const spans = quotaWindows(nowMs);
    const { admitted, used } = await this.counters.consume(
      keyId,
      cost,
      QUOTA_WINDOWS.map((w) => ({
        id: spans[w].id,
        limit: limits[w],
        expiresAt: new Date(spans[w].endMs + TTL_MARGIN_MS),
      })),
      new Date(nowMs),
    );
    const usage = { minute: used[0]!, day: used[1]!, month: used[2]! };
    const exceeded: QuotaWindow[] = admitted ? [] : QUOTA_WINDOWS.filter((w) => usage[w] + cost > limits[w]);
    if (!admitted && exceeded.length === 0)
      throw new Error('quota statement refused without naming a window');
    return buildQuotaDecision(usage, exceeded, limits, spans);
  }

  async reconcile(batches: readonly QuotaBatch[]): Promise<void> {
    await this.counters.reconcile(
      batches.map((b) => ({
        id: b.id,
        keyId: b.keyId,
        windowId: b.windowId,
        units: b.units,
        expiresAt: new Date(b.endMs + TTL_MARGIN_MS),
      })),
    );
  }

  /** Drops expired counters; the gateway calls it now and then. */
  sweep(nowMs: number): Promise<void> {
    return this.counters.sweep(new Date(nowMs));
  }
}
