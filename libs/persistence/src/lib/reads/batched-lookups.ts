import { AsyncResource } from 'node:async_hooks';

/**
 * How many statements one batcher keeps running at once: past them, lookups wait and leave together
 * in the next. A statement of several cards costs PostgreSQL little more than one of one card, and
 * the service one round trip instead of several (measured with pgbench on `tcg_bench_full`: 6,603
 * cards/s one per statement, 16,537 eight per statement); a lookup that arrives while fewer run
 * leaves in the same turn of the event loop, so a quiet service adds no wait.
 */
export const STATEMENTS_IN_FLIGHT = 4;
/** The most lookups one statement carries. */
export const LOOKUPS_PER_STATEMENT = 32;
/**
 * Lookups one batcher lets wait; more are refused at once. 64 full statements' worth: a database
 * that has stopped answering must not collect every request the service receives meanwhile.
 */
export const MAX_WAITING = 64 * LOOKUPS_PER_STATEMENT;
/**
 * A lookup that waited this long for a statement is refused rather than sent (its client has most
 * likely given up): as long as the pool waits for a connection (DATABASE_CONNECT_TIMEOUT_MS's
 * default). How long the statements themselves may run is their deadline's business.
 */
export const MAX_WAIT_MS = 2_000;

/**
 * What a refused lookup rejects with: class 53 (insufficient resources), which
 * `databaseUnavailable` reads as a 503 the client may retry.
 */
export class LookupsOverloadedError extends Error {
  readonly code = '53000';
  constructor(why: string) {
    super(`card lookups refused: ${why}`);
    this.name = 'LookupsOverloadedError';
  }
}

/**
 * Turns of the event loop are scheduled outside any request's async context, and each statement
 * runs in that of the first lookup it carries: what it logs (a cancelled statement) names a request
 * it serves, and a batch started when another ended does not keep the earlier one's request alive.
 */
const OUTSIDE_REQUESTS = new AsyncResource('LookupBatcher');

interface Waiter<V> {
  readonly key: string;
  readonly since: number;
  /**
   * The async context of the lookup's caller, to run its statement in. An AsyncResource rather
   * than `AsyncLocalStorage.snapshot()`, which wraps one in a bound function per call: that cost
   * 1.7% of api-v1's CPU in bench:api's v1-uniform row, for the same context.
   */
  readonly context: AsyncResource;
  readonly resolve: (value: V | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Lookups by key gathered into statements: those asked for in one turn of the event loop (the
 * requests parsed from one read of the sockets) leave together in one statement at its end, and
 * while STATEMENTS_IN_FLIGHT run, the lookups that arrive wait for the first to finish and leave
 * together. `run` answers for each key it finds; a key it does not find resolves to undefined, and
 * its failure rejects every lookup of the statement. Past MAX_WAITING waiting, or MAX_WAIT_MS of
 * waiting, a lookup is refused (LookupsOverloadedError).
 */
export class LookupBatcher<V> {
  private pending: Waiter<V>[] = [];
  private scheduled = false;
  private running = 0;

  constructor(
    private readonly run: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
    private readonly clock: () => number = Date.now,
  ) {}

  load(key: string): Promise<V | undefined> {
    if (this.pending.length >= MAX_WAITING)
      return Promise.reject(new LookupsOverloadedError(`${MAX_WAITING} are waiting`));
    return new Promise<V | undefined>((resolve, reject) => {
      this.pending.push({
        key,
        since: this.clock(),
        context: new AsyncResource('CardLookup'),
        resolve,
        reject,
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= STATEMENTS_IN_FLIGHT || this.pending.length === 0) return;
    this.scheduled = true;
    OUTSIDE_REQUESTS.runInAsyncScope(() =>
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      }),
    );
  }

  private flush(): void {
    const stale = this.clock() - MAX_WAIT_MS;
    while (this.pending.length > 0 && this.running < STATEMENTS_IN_FLIGHT) {
      const batch = this.pending.splice(0, LOOKUPS_PER_STATEMENT).filter((waiter) => {
        if (waiter.since > stale) return true;
        waiter.reject(new LookupsOverloadedError(`waited more than ${MAX_WAIT_MS} ms`));
        return false;
      });
      if (batch.length > 0) this.send(batch);
    }
  }

  private send(batch: readonly Waiter<V>[]): void {
    this.running++;
    let ran: Promise<ReadonlyMap<string, V>>;
    try {
      const keys = [...new Set(batch.map((w) => w.key))];
      ran = batch[0]!.context.runInAsyncScope(() => this.run(keys));
    } catch (error) {
      ran = Promise.reject(error);
    }
    ran
      .then(
        (found) => batch.forEach((w) => w.resolve(found.get(w.key))),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.running--;
        this.schedule();
      });
  }
}
