import { ApiKeyRecord, hashApiKey } from '@tcg/domain';
import type { ApiKeyRepository } from '@tcg/persistence';
import { StoreTimeoutError, withTimeout } from '../limits/failover';

export type KeyLookup =
  | { readonly kind: 'found'; readonly record: ApiKeyRecord }
  | { readonly kind: 'unknown' }
  /** The database did not answer in time (or too many lookups are waiting) and nothing usable is cached. */
  | { readonly kind: 'unavailable' };

/**
 * How a lookup was answered: from a fresh entry (`hit`, `negative_hit` for a key known invalid),
 * by the database (`miss`), from an expired entry while the database could not confirm it
 * (`stale`), or not at all (`unavailable`).
 */
export type KeyLookupResult = 'hit' | 'negative_hit' | 'miss' | 'stale' | 'unavailable';

export interface ApiKeyCacheOptions {
  /** How long an answer is trusted: a revoked key stops working within this, when the database answers. */
  readonly ttlMs: number;
  /** How long past `ttlMs` a valid key is still served while its refresh fails. */
  readonly staleMs: number;
  /** Longest a request waits for the database. */
  readonly lookupTimeoutMs: number;
  readonly maxValid?: number;
  readonly maxUnknown?: number;
  /**
   * Lookups of keys not known valid that may run on the database at once; more wait their turn
   * (see LookupSlots), and past the queue's bound are `unavailable`.
   */
  readonly maxPendingLookups?: number;
  /**
   * How long a key due for its refresh ahead of expiry waits for others, so that the keys in use
   * are refreshed by one statement per interval rather than one each (default REFRESH_BATCH_MS,
   * at most a quarter of `ttlMs`).
   */
  readonly refreshBatchMs?: number;
  readonly clock?: () => number;
  /** Told how each lookup was answered (the gateway's metrics). */
  readonly onLookup?: (result: KeyLookupResult) => void;
}

interface ValidEntry {
  readonly record: ApiKeyRecord;
  readonly fetchedMs: number;
}

/** After a lookup failed or timed out, how long requests stop waiting on the database. */
const BACKOFF_MS = 1000;

/** See `ApiKeyCacheOptions.refreshBatchMs`. */
const REFRESH_BATCH_MS = 100;

/**
 * Most keys one refresh statement reads; more wait for the next interval. With the defaults that
 * is 10,000 keys falling due a second, 25,000 keys in steady use, before any waits; a key left
 * waiting past its TTL is read when a request asks for it, as before it was refreshed ahead.
 */
const REFRESH_BATCH_MAX = 1000;

/** The reads the cache makes: one key when a request waits for it, many when refreshing ahead. */
export type KeyReads = Pick<ApiKeyRepository, 'findActiveByHash' | 'findActiveByHashes'>;

/**
 * Key lookups in front of the database, built so that guesses cannot hurt valid keys:
 *
 * - valid keys live in their own LRU, unknown keys in a separate bounded map, so a flood of random
 *   keys evicts only other random keys;
 * - concurrent lookups of one key share one query, and lookups of keys not known valid are capped,
 *   so a flood cannot queue without bound on the gateway's small pool;
 * - a valid entry older than half its TTL is refreshed in the background while it is still served,
 *   so a key in steady use never waits for the database; the keys due within `refreshBatchMs`
 *   are read by one statement (up to REFRESH_BATCH_MAX keys), so the refreshes cost one query per
 *   interval, not one per key every half TTL (docs/keys-and-limits.md, "The key cache");
 * - an expired valid entry waits for its refresh (a revoked key stops within the TTL), but if the
 *   database fails or is slower than `lookupTimeoutMs` it is served stale for up to `staleMs`;
 *   with nothing cached the answer is `unavailable` (the gateway's 503), never a hang or a 401.
 *
 * Entries are keyed by the key's SHA-256, never by the clear key.
 */
export class ApiKeyCache {
  private readonly valid = new Map<string, ValidEntry>();
  private readonly unknown = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<ApiKeyRecord | null>>();
  /** Keys due for their refresh ahead of expiry, by id, waiting for `flushDue`. */
  private readonly due = new Map<string, Buffer>();
  private dueTimer: NodeJS.Timeout | undefined;
  /** Set by `stop`: no refresh ahead is made any more (requests still read what they wait for). */
  private stopped = false;
  private readonly refreshBatchMs: number;
  private readonly slots: LookupSlots;
  private databaseFailingUntil = Number.NEGATIVE_INFINITY;
  private readonly maxValid: number;
  private readonly maxUnknown: number;
  private readonly clock: () => number;

  constructor(
    private readonly reads: KeyReads,
    private readonly options: ApiKeyCacheOptions,
  ) {
    this.refreshBatchMs = Math.min(options.refreshBatchMs ?? REFRESH_BATCH_MS, options.ttlMs / 4);
    this.maxValid = options.maxValid ?? 50_000;
    this.maxUnknown = options.maxUnknown ?? 50_000;
    this.clock = options.clock ?? Date.now;
    this.slots = new LookupSlots(options.maxPendingLookups ?? 64);
  }

  /**
   * `suspect`: the key comes from an address blocked for bad keys. Its lookup may still run (a
   * new customer behind the same address is served), but only in the part of the budget that is
   * not reserved for everyone else.
   */
  async lookup(clearKey: string, suspect = false): Promise<KeyLookup> {
    const [answer, result] = await this.answer(clearKey, suspect);
    this.options.onLookup?.(result);
    return answer;
  }

  private async answer(clearKey: string, suspect: boolean): Promise<[KeyLookup, KeyLookupResult]> {
    const hash = hashApiKey(clearKey);
    const id = idOf(hash);
    const now = this.clock();
    const entry = this.valid.get(id);
    if (entry) {
      this.valid.delete(id); // most recently used last
      this.valid.set(id, entry);
      const age = now - entry.fetchedMs;
      if (age < this.options.ttlMs) {
        // Refreshed ahead, unawaited: its outcome lands in the cache, and a failure only sets the backoff.
        if (age >= this.options.ttlMs / 2 && now >= this.databaseFailingUntil) this.refreshAhead(id, hash);
        return [{ kind: 'found', record: entry.record }, 'hit'];
      }
      const usableStale = age < this.options.ttlMs + this.options.staleMs;
      if (usableStale && now < this.databaseFailingUntil)
        return [{ kind: 'found', record: entry.record }, 'stale'];
      const answer = await this.wait(this.query(id, hash, false));
      if (answer !== undefined) return [answer, 'miss'];
      return usableStale
        ? [{ kind: 'found', record: entry.record }, 'stale']
        : [{ kind: 'unavailable' }, 'unavailable'];
    }
    const unknownUntil = this.unknown.get(id);
    if (unknownUntil !== undefined) {
      if (now < unknownUntil) return [{ kind: 'unknown' }, 'negative_hit'];
      this.unknown.delete(id);
    }
    if (now < this.databaseFailingUntil) return [{ kind: 'unavailable' }, 'unavailable'];
    let query = this.inflight.get(id);
    if (!query) {
      // The wait for a slot counts against the same deadline as the query.
      if (!this.slots.tryAcquire(suspect) && !(await this.slots.wait(suspect, this.options.lookupTimeoutMs)))
        return [{ kind: 'unavailable' }, 'unavailable'];
      query = this.query(id, hash, true);
    }
    const waitedMs = this.clock() - now;
    const answer = await this.wait(query, Math.max(1, this.options.lookupTimeoutMs - waitedMs));
    return answer ? [answer, 'miss'] : [{ kind: 'unavailable' }, 'unavailable'];
  }

  /**
   * Stops refreshing ahead (the gateway's shutdown, while the last requests drain): a refresh due
   * then is not made, and none is scheduled after.
   */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.dueTimer);
    this.dueTimer = undefined;
    this.due.clear();
  }

  /** Entries held (tests, diagnostics). */
  get sizes(): { valid: number; unknown: number; inflight: number } {
    return { valid: this.valid.size, unknown: this.unknown.size, inflight: this.inflight.size };
  }

  /** The answer within the deadline, or undefined when the database failed or was too slow. */
  private async wait(
    query: Promise<ApiKeyRecord | null>,
    timeoutMs = this.options.lookupTimeoutMs,
  ): Promise<KeyLookup | undefined> {
    try {
      const record = await withTimeout(query, timeoutMs, 'postgres');
      return record ? { kind: 'found', record } : { kind: 'unknown' };
    } catch (error) {
      if (error instanceof StoreTimeoutError) this.databaseFailingUntil = this.clock() + BACKOFF_MS;
      return undefined;
    }
  }

  /**
   * The one query for this key, started unless one is in flight; it updates the cache when it
   * settles. `holdsSlot`: the caller acquired one of `slots`, released when the query settles.
   */
  private query(id: string, hash: Buffer, holdsSlot: boolean): Promise<ApiKeyRecord | null> {
    const running = this.inflight.get(id);
    if (running) {
      if (holdsSlot) this.slots.release();
      return running;
    }
    // A request waits for this key now: its due refresh would read it again.
    this.due.delete(id);
    return this.track(id, this.reads.findActiveByHash(hash), holdsSlot);
  }

  /** Marks the key due for a refresh ahead of expiry: read with the others due within the interval. */
  private refreshAhead(id: string, hash: Buffer): void {
    if (this.stopped || this.inflight.has(id) || this.due.has(id)) return;
    this.due.set(id, hash);
    this.scheduleFlush();
  }

  /** Reads the keys due at the end of the interval, unless a read is already scheduled. */
  private scheduleFlush(): void {
    if (this.dueTimer !== undefined) return;
    this.dueTimer = setTimeout(() => this.flushDue(), this.refreshBatchMs);
    this.dueTimer.unref();
  }

  /** Reads the keys due (up to REFRESH_BATCH_MAX; the rest at the next interval) in one statement. */
  private flushDue(): void {
    this.dueTimer = undefined;
    if (this.stopped) return;
    const batch: [string, Buffer][] = [];
    for (const entry of this.due) {
      if (batch.length === REFRESH_BATCH_MAX) break;
      batch.push(entry);
    }
    for (const [id] of batch) this.due.delete(id);
    if (this.due.size > 0) this.scheduleFlush();
    if (batch.length === 0) return;
    // Called in a promise, so that a reader throwing at once rejects like one failing later.
    const read = Promise.resolve(batch.map(([, hash]) => hash)).then((hashes) =>
      this.reads.findActiveByHashes(hashes),
    );
    batch.forEach(([id], i) => {
      // A failure only sets the backoff (in track): the entries are served until they expire. A
      // key the batch could not read (an Error in its place) fails alone, as its own read would.
      const one = read.then((records) => {
        const record = records[i] ?? null;
        if (record instanceof Error) throw record;
        return record;
      });
      this.track(id, one, false).catch(() => undefined);
    });
  }

  /** The read of one key, as the one in flight for it: it updates the cache when it settles. */
  private track(
    id: string,
    read: Promise<ApiKeyRecord | null>,
    holdsSlot: boolean,
  ): Promise<ApiKeyRecord | null> {
    const query = read.then(
      (record) => {
        this.remember(id, record);
        return record;
      },
      (error: unknown) => {
        this.databaseFailingUntil = this.clock() + BACKOFF_MS;
        throw error;
      },
    );
    this.inflight.set(id, query);
    const settle = (): void => {
      this.inflight.delete(id);
      if (holdsSlot) this.slots.release();
    };
    query.then(settle, settle);
    return query;
  }

  private remember(id: string, record: ApiKeyRecord | null): void {
    const now = this.clock();
    if (record) {
      this.unknown.delete(id);
      this.valid.delete(id);
      this.valid.set(id, { record, fetchedMs: now });
      if (this.valid.size > this.maxValid) this.valid.delete(this.valid.keys().next().value!);
    } else {
      this.valid.delete(id); // revoked
      this.unknown.delete(id);
      this.unknown.set(id, now + this.options.ttlMs);
      if (this.unknown.size > this.maxUnknown) this.unknown.delete(this.unknown.keys().next().value!);
    }
  }
}

const idOf = (hash: Buffer): string => hash.toString('base64');

interface Waiter {
  readonly grant: (granted: boolean) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * The budget of database lookups for keys not known valid, shared fairly between a flood and
 * everyone else. Of `max` slots, a quarter is reserved for requests that are not `suspect`
 * (from addresses not blocked for bad keys); a request finding no slot waits in a FIFO queue,
 * within its lookup deadline, instead of being refused at once, so a new customer behind a
 * flooding address is looked up after the requests ahead of it rather than crowded out. The
 * queues are bounded (4 × max for others, 2 × max for suspects): past them, `unavailable`.
 */
export class LookupSlots {
  private active = 0;
  private readonly normal: Waiter[] = [];
  private readonly suspects: Waiter[] = [];
  /** Slots suspects may hold at once. */
  readonly suspectMax: number;

  constructor(readonly max: number) {
    this.suspectMax = Math.max(1, max - Math.ceil(max / 4));
  }

  /** Takes a slot now if one is free to this kind of request and nobody it must yield to waits. */
  tryAcquire(suspect: boolean): boolean {
    // Others go first; among suspects, first come first served.
    const free = suspect
      ? this.active < this.suspectMax && this.suspects.length === 0
      : this.active < this.max;
    if (!free || this.normal.length > 0) return false;
    this.active++;
    return true;
  }

  /** Waits in line for a slot: true once granted, false past the deadline or when the line is full. */
  wait(suspect: boolean, timeoutMs: number): Promise<boolean> {
    const queue = suspect ? this.suspects : this.normal;
    if (queue.length >= (suspect ? 2 : 4) * this.max) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          const at = queue.indexOf(waiter);
          if (at !== -1) queue.splice(at, 1);
          resolve(false);
        }, timeoutMs),
      };
      queue.push(waiter);
    });
  }

  release(): void {
    this.active--;
    const next = this.normal.shift() ?? (this.active < this.suspectMax ? this.suspects.shift() : undefined);
    if (!next) return;
    clearTimeout(next.timer);
    this.active++;
    next.grant(true);
  }
}
