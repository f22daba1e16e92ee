import { type ApiKeyRecord, generateApiKey, hashApiKey } from '@tcg/domain';
import { ApiKeyCache, type ApiKeyCacheOptions } from './api-key-cache.service';

/** A key table the test controls: answers, fails, or holds each query until released. */
class FakeKeys {
  readonly valid = new Map<string, ApiKeyRecord>();
  mode: 'answer' | 'fail' | 'hold' = 'answer';
  queries = 0;
  readonly batches: number[] = [];
  private readonly held: (() => void)[] = [];

  add(key: string, plan: ApiKeyRecord['plan'] = 'starter'): ApiKeyRecord {
    const record: ApiKeyRecord = {
      id: `id-${this.valid.size}`,
      prefix: key.slice(0, 12),
      plan,
      label: '',
      createdAt: new Date(0),
      revokedAt: null,
    };
    this.valid.set(hashApiKey(key).toString('hex'), record);
    return record;
  }

  revoke(key: string): void {
    this.valid.delete(hashApiKey(key).toString('hex'));
  }

  /** Keys whose row the gateway cannot read (a plan it does not know): an Error in their place. */
  readonly unreadable = new Set<string>();

  findActiveByHash = (hash: Buffer): Promise<ApiKeyRecord | null> =>
    this.findActiveByHashes([hash]).then(([record]) => {
      if (record instanceof Error) throw record;
      return record ?? null;
    });

  /** One query, whatever the number of keys; each batch's size is kept in `batches`. */
  findActiveByHashes = (hashes: readonly Buffer[]): Promise<(ApiKeyRecord | null | Error)[]> => {
    this.queries++;
    this.batches.push(hashes.length);
    const answer = () =>
      hashes.map((hash) => {
        const hex = hash.toString('hex');
        return this.unreadable.has(hex) ? new Error('unknown plan') : (this.valid.get(hex) ?? null);
      });
    if (this.mode === 'fail') return Promise.reject(new Error('connection refused'));
    if (this.mode === 'hold') return new Promise((resolve) => this.held.push(() => resolve(answer())));
    return Promise.resolve(answer());
  };

  release(): void {
    for (const go of this.held.splice(0)) go();
  }
}

describe('ApiKeyCache', () => {
  let keys: FakeKeys;
  let clockMs: number;
  const options = (o: Partial<ApiKeyCacheOptions> = {}): ApiKeyCacheOptions => ({
    ttlMs: 1000,
    staleMs: 60_000,
    lookupTimeoutMs: 20,
    clock: () => clockMs,
    ...o,
  });

  beforeEach(() => {
    keys = new FakeKeys();
    clockMs = 1_000_000;
  });

  it('finds a valid key, refuses an unknown one, and asks the database once per key within the TTL', async () => {
    const cache = new ApiKeyCache(keys, options());
    const key = generateApiKey();
    const record = keys.add(key);
    const unknown = generateApiKey();
    expect(await cache.lookup(key)).toEqual({ kind: 'found', record });
    expect(await cache.lookup(unknown)).toEqual({ kind: 'unknown' });
    expect(await cache.lookup(key)).toEqual({ kind: 'found', record });
    expect(await cache.lookup(unknown)).toEqual({ kind: 'unknown' });
    expect(keys.queries).toBe(2);
  });

  it('shares one query between concurrent lookups of a key', async () => {
    const cache = new ApiKeyCache(keys, options({ lookupTimeoutMs: 1000 }));
    const key = generateApiKey();
    keys.add(key);
    keys.mode = 'hold';
    const pending = Array.from({ length: 20 }, () => cache.lookup(key));
    keys.release();
    const answers = await Promise.all(pending);
    expect(answers.every((a) => a.kind === 'found')).toBe(true);
    expect(keys.queries).toBe(1);
  });

  it('keeps valid keys when a flood of unknown ones overflows the unknown map', async () => {
    const cache = new ApiKeyCache(keys, options({ maxValid: 10, maxUnknown: 10 }));
    const valid = Array.from({ length: 5 }, () => generateApiKey());
    for (const k of valid) keys.add(k);
    for (const k of valid) await cache.lookup(k);
    for (let i = 0; i < 200; i++) expect((await cache.lookup(generateApiKey())).kind).toBe('unknown');
    expect(cache.sizes).toMatchObject({ valid: 5, unknown: 10 });
    const before = keys.queries;
    for (const k of valid) expect((await cache.lookup(k)).kind).toBe('found');
    expect(keys.queries).toBe(before);
  });

  it('evicts the least recently used valid key, not the oldest one', async () => {
    const cache = new ApiKeyCache(keys, options({ maxValid: 2 }));
    const [a, b, c] = [generateApiKey(), generateApiKey(), generateApiKey()];
    for (const k of [a, b, c]) keys.add(k);
    await cache.lookup(a);
    await cache.lookup(b);
    await cache.lookup(a); // a is now the most recently used
    await cache.lookup(c); // evicts b
    const before = keys.queries;
    await cache.lookup(a);
    expect(keys.queries).toBe(before);
    await cache.lookup(b);
    expect(keys.queries).toBe(before + 1);
  });

  it('stops a revoked key once its entry expires and the database answers', async () => {
    const cache = new ApiKeyCache(keys, options());
    const key = generateApiKey();
    keys.add(key);
    expect((await cache.lookup(key)).kind).toBe('found');
    keys.revoke(key);
    clockMs += 1000;
    expect(await cache.lookup(key)).toEqual({ kind: 'unknown' });
  });

  it('serves a valid key stale while the database fails, for at most staleMs', async () => {
    const cache = new ApiKeyCache(keys, options({ staleMs: 5000 }));
    const key = generateApiKey();
    keys.add(key);
    await cache.lookup(key);
    keys.mode = 'fail';
    clockMs += 2000;
    expect((await cache.lookup(key)).kind).toBe('found');
    clockMs += 5000; // past ttl + staleMs
    expect(await cache.lookup(key)).toEqual({ kind: 'unavailable' });
  });

  it('answers unavailable, not unknown and not a hang, when the database is slow and nothing is cached', async () => {
    const cache = new ApiKeyCache(keys, options());
    const key = generateApiKey();
    keys.add(key);
    keys.mode = 'hold';
    expect(await cache.lookup(key)).toEqual({ kind: 'unavailable' });
    // Within the backoff, other lookups do not wait on the database at all.
    expect(await cache.lookup(generateApiKey())).toEqual({ kind: 'unavailable' });
    expect(keys.queries).toBe(1);
    // The late answer still lands in the cache.
    keys.release();
    await new Promise((r) => setImmediate(r));
    expect((await cache.lookup(key)).kind).toBe('found');
  });

  it('tells how each lookup was answered: miss, hit, negative hit, stale, unavailable', async () => {
    const results: string[] = [];
    const cache = new ApiKeyCache(keys, options({ staleMs: 5000, onLookup: (r) => results.push(r) }));
    const key = generateApiKey();
    const unknown = generateApiKey();
    keys.add(key);
    await cache.lookup(key);
    await cache.lookup(key);
    await cache.lookup(unknown);
    await cache.lookup(unknown);
    keys.mode = 'fail';
    clockMs += 2000; // past the TTL: the refresh fails, the entry is served stale
    await cache.lookup(key);
    await cache.lookup(generateApiKey()); // nothing cached, database failing
    expect(results).toEqual(['miss', 'hit', 'miss', 'negative_hit', 'stale', 'unavailable']);
  });

  it('runs at most maxPendingLookups lookups of keys not known valid; the next ones wait their turn', async () => {
    const cache = new ApiKeyCache(keys, options({ lookupTimeoutMs: 1000, maxPendingLookups: 3 }));
    keys.mode = 'hold';
    const running = Array.from({ length: 3 }, () => cache.lookup(generateApiKey()));
    const queued = cache.lookup(generateApiKey());
    await new Promise((r) => setImmediate(r));
    expect(keys.queries).toBe(3);
    keys.release(); // the three answer; the queued one gets a slot and queries in turn
    expect((await Promise.all(running)).map((a) => a.kind)).toEqual(['unknown', 'unknown', 'unknown']);
    await new Promise((r) => setImmediate(r));
    keys.release();
    expect(await queued).toEqual({ kind: 'unknown' });
    expect(keys.queries).toBe(4);
  });

  it('keeps a quarter of the slots from suspects, serves a valid suspect in its turn, and bounds the line', async () => {
    const cache = new ApiKeyCache(keys, options({ lookupTimeoutMs: 1000, maxPendingLookups: 4 }));
    keys.mode = 'hold';
    const flood = Array.from({ length: 3 + 8 }, () => cache.lookup(generateApiKey(), true));
    const customer = generateApiKey();
    keys.add(customer);
    const customerAnswer = cache.lookup(customer, true); // the line of suspects is full: 3 run, 8 wait
    expect(await customerAnswer).toEqual({ kind: 'unavailable' });
    expect(keys.queries).toBe(3);
    // Another address's lookup takes the reserved slot at once.
    const other = cache.lookup(generateApiKey());
    expect(keys.queries).toBe(4);
    // Drained in order: everyone in line is looked up, the valid suspect too once the line has room.
    keys.release();
    await new Promise((r) => setImmediate(r));
    const late = cache.lookup(customer, true); // three of the line moved up: it has room now
    for (let i = 0; i < 6 && keys.queries < 13; i++) {
      keys.release();
      await new Promise((r) => setImmediate(r));
    }
    keys.release();
    expect((await Promise.all(flood)).every((a) => a.kind === 'unknown')).toBe(true);
    expect((await other).kind).toBe('unknown');
    expect((await late).kind).toBe('found');
  });

  it('answers unavailable when the wait for a slot outlasts the lookup deadline', async () => {
    const cache = new ApiKeyCache(keys, options({ lookupTimeoutMs: 20, maxPendingLookups: 1 }));
    keys.mode = 'hold';
    void cache.lookup(generateApiKey()).catch(() => undefined);
    expect(await cache.lookup(generateApiKey())).toEqual({ kind: 'unavailable' });
    expect(keys.queries).toBe(1);
    keys.release();
  });

  /** Past the refresh interval (`refreshBatchMs: 0` in these tests): the due keys have been read. */
  const afterInterval = () => new Promise((r) => setTimeout(r, 5));

  /** A cache holding `count` valid keys, each read once (one query each). */
  const cacheWithKeys = async (count: number, o: Partial<ApiKeyCacheOptions> = {}) => {
    const cache = new ApiKeyCache(keys, options({ refreshBatchMs: 0, ...o }));
    const clear = Array.from({ length: count }, () => generateApiKey());
    for (const key of clear) keys.add(key);
    for (const key of clear) await cache.lookup(key);
    return { cache, clear };
  };

  const cacheWithOneKey = async (o: Partial<ApiKeyCacheOptions> = {}) => {
    const { cache, clear } = await cacheWithKeys(1, o);
    return { cache, key: clear[0]! };
  };

  it('refreshes a key in use ahead of its expiry, so it never waits for the database', async () => {
    const { cache, key } = await cacheWithOneKey();
    clockMs += 600; // past half the TTL: served, and refreshed in the background
    keys.mode = 'hold';
    expect((await cache.lookup(key)).kind).toBe('found');
    await afterInterval();
    expect(keys.queries).toBe(2);
    keys.release();
    await new Promise((r) => setImmediate(r));
    clockMs += 450; // past the first answer's TTL, early in the refreshed one
    keys.mode = 'fail';
    expect((await cache.lookup(key)).kind).toBe('found');
    expect(keys.queries).toBe(2);
  });

  it('refreshes the keys due within the interval with one statement, and drops those revoked since', async () => {
    const { cache, clear } = await cacheWithKeys(5);
    expect(keys.batches).toEqual([1, 1, 1, 1, 1]);
    clockMs += 600;
    keys.revoke(clear[0]!);
    for (const key of clear) expect((await cache.lookup(key)).kind).toBe('found');
    await afterInterval();
    expect(keys.batches).toEqual([1, 1, 1, 1, 1, 5]);
    clockMs += 450; // past the first answers' TTL: the refreshed entries answer, the revoked key is refused
    expect(await cache.lookup(clear[0]!)).toEqual({ kind: 'unknown' });
    for (const key of clear.slice(1)) expect((await cache.lookup(key)).kind).toBe('found');
    expect(keys.queries).toBe(6);
  });

  it('reads a due key once when a request must wait for it before the interval ends', async () => {
    const { cache, key } = await cacheWithOneKey({ refreshBatchMs: 50 });
    clockMs += 600; // due: its refresh waits for the interval
    expect((await cache.lookup(key)).kind).toBe('found');
    expect(keys.queries).toBe(1);
    clockMs += 500; // expired before the interval ended: this request reads it now
    expect((await cache.lookup(key)).kind).toBe('found');
    expect(keys.queries).toBe(2);
    await new Promise((r) => setTimeout(r, 80));
    expect(keys.queries).toBe(2);
  });

  it('refreshes the others of a batch when one key of it cannot be read', async () => {
    const results: string[] = [];
    const cache = new ApiKeyCache(keys, options({ refreshBatchMs: 0, onLookup: (r) => results.push(r) }));
    const [bad, good] = [generateApiKey(), generateApiKey()];
    keys.add(bad);
    keys.add(good);
    await cache.lookup(bad);
    await cache.lookup(good);
    clockMs += 600;
    keys.unreadable.add(hashApiKey(bad).toString('hex'));
    await cache.lookup(bad);
    await cache.lookup(good);
    await afterInterval();
    expect(keys.batches).toEqual([1, 1, 2]);
    clockMs += 450; // past the first answers' TTL: the good key's refreshed entry answers
    keys.mode = 'fail';
    expect((await cache.lookup(good)).kind).toBe('found');
    expect(results.at(-1)).toBe('hit');
    expect(keys.queries).toBe(3);
  });

  it('reads at most 1,000 due keys a statement, the rest at the next interval', async () => {
    const { cache, clear } = await cacheWithKeys(1001);
    clockMs += 600;
    for (const key of clear) await cache.lookup(key);
    await afterInterval();
    await afterInterval();
    expect(keys.batches.slice(1001)).toEqual([1000, 1]);
  });

  it('refreshes nothing ahead once stopped', async () => {
    const { cache, key } = await cacheWithOneKey();
    clockMs += 600;
    await cache.lookup(key); // due, its timer set
    cache.stop();
    await cache.lookup(key); // after the stop: not due again
    await afterInterval();
    expect(keys.queries).toBe(1);
  });

  it('sets the backoff when a refresh fails, and keeps serving the entries until they expire', async () => {
    const { cache, key } = await cacheWithOneKey();
    clockMs += 600;
    keys.mode = 'fail';
    expect((await cache.lookup(key)).kind).toBe('found');
    await afterInterval();
    expect(keys.queries).toBe(2);
    clockMs += 500; // expired, the database failing: served stale, without another query
    expect((await cache.lookup(key)).kind).toBe('found');
    expect(keys.queries).toBe(2);
  });
});
