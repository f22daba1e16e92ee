import { COMPRESSION } from './cached-responder';
import { Representation } from './representation';
import { ResponseCache } from './response-cache';

const rep = (size: number) => new Representation(Buffer.alloc(size, 'x'), {}, false, COMPRESSION);

describe('ResponseCache', () => {
  it('returns what it kept at the same version only', () => {
    const cache = new ResponseCache(100_000);
    const a = rep(100);
    cache.set('k', 1, a);
    expect(cache.get('k', 1)).toBe(a);
    expect(cache.get('k', 2)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, hitRatio: 0.5, entries: 1, version: 1 });
  });

  it('empties itself when an entry of another version is kept', () => {
    const cache = new ResponseCache(100_000);
    cache.set('a', 1, rep(100));
    cache.set('b', 2, rep(100));
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 1, version: 2 });
  });

  it('evicts the least recently used entries past its byte budget', () => {
    const cache = new ResponseCache(8 * 1024);
    const entries = ['a', 'b', 'c', 'd'].map((k) => [k, rep(700)] as const);
    for (const [k, r] of entries) cache.set(k, 1, r);
    expect(cache.get('a', 1)).toBeDefined(); // a becomes the most recently used
    for (let i = 0; i < 6; i++) cache.set(`e${i}`, 1, rep(700));
    const stats = cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(stats.maxBytes);
    expect(stats.evictions).toBeGreaterThan(0);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
  });

  it('does not keep an entry larger than an eighth of the budget', () => {
    const cache = new ResponseCache(8 * 1024);
    cache.set('big', 1, rep(2000));
    expect(cache.get('big', 1)).toBeUndefined();
    expect(cache.stats().bytes).toBe(0);
  });

  it('counts an entry’s growth when a coding is added to it', () => {
    const cache = new ResponseCache(1_000_000);
    const r = new Representation(
      Buffer.from(JSON.stringify({ x: 'y'.repeat(5000) })),
      {},
      false,
      COMPRESSION,
    );
    cache.set('k', 1, r);
    const before = cache.stats().bytes;
    const size = r.bytes;
    r.body('gzip', Buffer.alloc(0));
    cache.grew('k', r, size);
    expect(cache.stats().bytes).toBe(before + (r.bytes - size));
  });

  it('carries to a newer version the entries made of cards it did not change, and only those', () => {
    const cache = new ResponseCache(100_000);
    const [a, b, page] = [rep(100), rep(100), rep(100)];
    cache.set('a', 1, a, ['card-a']);
    cache.set('b', 1, b, ['card-b', 'card-c']);
    cache.set('page', 1, page);
    cache.advance(1, 3, new Set(['card-c']));
    expect(cache.get('a', 3)).toBe(a);
    expect(cache.get('b', 3)).toBeUndefined();
    expect(cache.get('page', 3)).toBeUndefined();
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.stats()).toMatchObject({
      entries: 1,
      bytes: a.bytes + 'a'.length,
      version: 3,
      carried: 1,
      outdated: 2,
    });
  });

  it('empties itself when anything may have changed, and ignores a move from another version', () => {
    const cache = new ResponseCache(100_000);
    cache.set('a', 2, rep(100), ['card-a']);
    cache.advance(1, 3, new Set());
    expect(cache.stats()).toMatchObject({ entries: 1, version: 2 });
    cache.advance(2, 3, null);
    expect(cache.get('a', 3)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0, version: null, outdated: 1 });
    expect(cache.at).toBeNull();
  });
});
