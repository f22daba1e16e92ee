export type FailoverLogger = (level: 'warn' | 'log', msg: string, fields?: object) => void;

export interface FailoverOptions {
  /** What the shared store is, for logs and `/health/ready`: `redis` or `postgres`. */
  readonly name: 'redis' | 'postgres';
  /** Whether the client is connected; while it is not, the store is not tried at all. */
  readonly isReady: () => boolean;
  /** A cheap round trip (PING, SELECT 1) that tells the store answers again. */
  readonly probe: () => Promise<unknown>;
  readonly log: FailoverLogger;
  /** Longest one call waits for the store before the caller is answered from memory. */
  readonly timeoutMs: number;
  /** After a failure, how long before the store is probed again. Default 1000 ms. */
  readonly retryIntervalMs?: number;
  /** The clock for `retryIntervalMs` (tests). */
  readonly clock?: () => number;
}

export const storeUnreachableMessage = (name: string): string => `${name} unreachable: counting in memory`;
export const storeBackMessage = (name: string): string => `${name} is back: counting in ${name} again`;

/**
 * The one "shared store, else this process's memory" switch, used by the quota store and the
 * auth-failure throttle alike, so both agree on whether the store is there.
 *
 * A call goes to the store while it answers; the first failure or timeout sends every call to
 * memory, and each switch is logged once. Recovery is never paid for by a client: at most once per
 * `retryIntervalMs`, a background probe checks the store, runs the recovery hooks (the quota store
 * writes back what memory admitted during the outage), and only when all of them succeeded do calls
 * go to the store again. Until then, calls keep counting in memory.
 */
export class Failover {
  readonly name: 'redis' | 'postgres';
  private readonly timeoutMs: number;
  private readonly retryIntervalMs: number;
  private readonly recoveryTimeoutMs: number;
  private readonly clock: () => number;
  private readonly hooks: (() => Promise<void>)[] = [];
  private usingStore = true;
  private nextProbeMs = Number.NEGATIVE_INFINITY;
  private recovery: Promise<void> | undefined;
  private recoveryFailureLogged = false;

  constructor(private readonly options: FailoverOptions) {
    this.name = options.name;
    this.timeoutMs = options.timeoutMs;
    this.retryIntervalMs = options.retryIntervalMs ?? 1000;
    // The recovery hooks (writing back what memory counted) may take ten store calls' time.
    this.recoveryTimeoutMs = 10 * options.timeoutMs;
    this.clock = options.clock ?? Date.now;
  }

  /** Whether calls currently go to the shared store. */
  get usingSharedStore(): boolean {
    return this.usingStore;
  }

  /** Runs before calls return to the store after an outage; a hook that fails keeps them in memory. */
  onRecovery(hook: () => Promise<void>): void {
    this.hooks.push(hook);
  }

  /** The recovery in progress, if any (tests wait for it). */
  settled(): Promise<void> {
    return this.recovery ?? Promise.resolve();
  }

  /** `shared` while the store answers within the deadline, else `memory`; never both for one call. */
  async run<T>(shared: () => Promise<T>, memory: () => T): Promise<T> {
    if (this.usingStore) {
      if (this.options.isReady()) {
        try {
          return await withTimeout(shared(), this.timeoutMs, this.name);
        } catch (err) {
          this.fail(err);
        }
      } else {
        this.fail(new Error('client not connected'));
      }
    } else {
      this.maybeRecover();
    }
    return memory();
  }

  private fail(err: unknown): void {
    this.nextProbeMs = this.clock() + this.retryIntervalMs;
    if (!this.usingStore) return;
    this.usingStore = false;
    this.recoveryFailureLogged = false;
    this.options.log('warn', storeUnreachableMessage(this.name), {
      reason: err instanceof Error ? err.message : String(err),
    });
  }

  private maybeRecover(): void {
    if (this.recovery || this.clock() < this.nextProbeMs || !this.options.isReady()) return;
    this.nextProbeMs = this.clock() + this.retryIntervalMs;
    this.recovery = (async () => {
      try {
        await withTimeout(this.options.probe(), this.timeoutMs, this.name);
        for (const hook of this.hooks) await withTimeout(hook(), this.recoveryTimeoutMs, this.name);
        this.usingStore = true;
        this.options.log('log', storeBackMessage(this.name));
      } catch (err) {
        this.nextProbeMs = this.clock() + this.retryIntervalMs;
        // Once per outage: a store that stays down would otherwise log every retry interval.
        if (!this.recoveryFailureLogged) {
          this.recoveryFailureLogged = true;
          this.options.log('warn', `${this.name} not back yet: still counting in memory`, {
            reason: err instanceof Error ? err.message : String(err),
          });
        }
      } finally {
        this.recovery = undefined;
      }
    })();
  }
}

export class StoreTimeoutError extends Error {
  constructor(name: string, ms: number) {
    super(`${name} did not answer within ${ms} ms`);
  }
}

/** Settles with `promise`, or rejects after `ms` (the work itself may still complete later). */
export function withTimeout<T>(promise: Promise<T>, ms: number, name: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeoutError(name, ms)), ms);
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
