import type { MemoryQuotaStore } from './memory-quota.store';
import type { QuotaDecision, QuotaLimits, QuotaStore } from './quota';
import { assertConsumeArguments } from './quota-windows';
import type { RedisQuotaStore } from './redis-quota.store';

export type QuotaLogger = (level: 'warn' | 'log', msg: string, fields?: object) => void;

export interface FailoverQuotaStoreOptions {
  /** Longest a request waits for Redis before it is counted in memory. Default 250 ms. */
  readonly redisTimeoutMs?: number;
  /**
   * After a failure, how long requests go straight to memory before one tries Redis again, so a
   * hung Redis costs one timeout per interval rather than one per request. Default 1000 ms.
   * (While the client reports it is not connected, Redis is not tried at all.)
   */
  readonly retryIntervalMs?: number;
  /** The clock for `retryIntervalMs` (tests). */
  readonly clock?: () => number;
}

export const REDIS_UNREACHABLE_MESSAGE = 'Redis unreachable: counting in memory';
export const REDIS_BACK_MESSAGE = 'Redis is back';

/**
 * Counts in Redis while Redis answers, and in this process's memory while it does not: never
 * unlimited, and never a request stuck on Redis. Each switch is logged once.
 *
 * What an outage costs: units counted in memory are not carried to Redis afterwards, and a Redis
 * call that timed out may still be executed by Redis later (counted twice, never lost). Memory
 * starts an outage from the usage Redis last reported for each key, so a key that was near its
 * limit stays near it; with several instances each counts its own share of the outage.
 */
export class FailoverQuotaStore implements QuotaStore {
  private readonly redisTimeoutMs: number;
  private readonly retryIntervalMs: number;
  private readonly clock: () => number;
  private usingRedis = true;
  private nextRedisTryMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly redis: Pick<RedisQuotaStore, 'consume' | 'isReady'>,
    private readonly memory: Pick<MemoryQuotaStore, 'consume' | 'raiseTo'>,
    private readonly log: QuotaLogger,
    options: FailoverQuotaStoreOptions = {},
  ) {
    this.redisTimeoutMs = options.redisTimeoutMs ?? 250;
    this.retryIntervalMs = options.retryIntervalMs ?? 1000;
    this.clock = options.clock ?? Date.now;
  }

  /** Whether requests are currently counted in Redis. */
  get countingInRedis(): boolean {
    return this.usingRedis;
  }

  async consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision> {
    // A bad argument is the caller's bug, not an outage: it must throw, not switch to memory.
    assertConsumeArguments(keyId, cost, limits);
    if (!this.redis.isReady()) {
      this.switchToMemory('client not connected');
    } else if (this.usingRedis || this.clock() >= this.nextRedisTryMs) {
      // While counting in memory, one request at a time probes Redis; the rest stay in memory.
      if (!this.usingRedis) this.nextRedisTryMs = this.clock() + this.retryIntervalMs;
      try {
        const decision = await withTimeout(
          this.redis.consume(keyId, cost, limits, nowMs),
          this.redisTimeoutMs,
        );
        this.switchToRedis();
        const { minute, day, month } = decision.usage;
        this.memory.raiseTo(keyId, { minute: minute.used, day: day.used, month: month.used }, nowMs);
        return decision;
      } catch (err) {
        this.switchToMemory(err instanceof Error ? err.message : String(err));
      }
    }
    return this.memory.consume(keyId, cost, limits, nowMs);
  }

  private switchToMemory(reason: string): void {
    this.nextRedisTryMs = this.clock() + this.retryIntervalMs;
    if (!this.usingRedis) return;
    this.usingRedis = false;
    this.log('warn', REDIS_UNREACHABLE_MESSAGE, { reason });
  }

  private switchToRedis(): void {
    if (this.usingRedis) return;
    this.usingRedis = true;
    this.log('log', REDIS_BACK_MESSAGE);
  }
}

class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RedisTimeoutError(ms)), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
