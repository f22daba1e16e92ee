/**
 * How many statements one batcher keeps running at once: past them, lookups wait and leave together
 * in the next. A statement of several cards costs PostgreSQL little more than one of one card, and
 * the service one round trip instead of several (measured with pgbench on `tcg_bench_full`: 7,247
 * cards/s one per statement, 19,512 eight per statement); a lookup arriving while fewer run leaves
 * at once, so a quiet service adds no wait.
 */
export const STATEMENTS_IN_FLIGHT = 4;
/** The most lookups one statement carries. */
export const LOOKUPS_PER_STATEMENT = 32;

interface Waiter<V> {
  readonly key: string;
  readonly resolve: (value: V | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Lookups by key gathered into statements: those asked for in one turn of the event loop (the
 * requests parsed from one read of the sockets) leave together in one statement when it ends, and
 * while STATEMENTS_IN_FLIGHT run, the lookups that arrive wait for the first to finish and leave
 * together. `run` answers for each key it finds; a key it does not find resolves to undefined, and
 * its failure rejects every lookup of the statement.
 */
export class LookupBatcher<V> {
  private pending: Waiter<V>[] = [];
  private scheduled = false;
  private running = 0;

  constructor(private readonly run: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>) {}

  load(key: string): Promise<V | undefined> {
    return new Promise<V | undefined>((resolve, reject) => {
      this.pending.push({ key, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running >= STATEMENTS_IN_FLIGHT || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.pending.length > 0 && this.running < STATEMENTS_IN_FLIGHT) {
      const batch = this.pending.splice(0, LOOKUPS_PER_STATEMENT);
      this.running++;
      let ran: Promise<ReadonlyMap<string, V>>;
      try {
        ran = this.run([...new Set(batch.map((w) => w.key))]);
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
}
