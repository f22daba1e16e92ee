import { Representation } from './representation';

export interface ResponseCacheStats {
  readonly hits: number;
  readonly misses: number;
  /** hits / (hits + misses), null before the first lookup. */
  readonly hitRatio: number | null;
  readonly entries: number;
  readonly bytes: number;
  readonly maxBytes: number;
  readonly evictions: number;
  /** Answers carried to a newer version because none of their cards changed, since start. */
  readonly carried: number;
  /** Answers dropped when the version moved: their cards changed, or they are not made of cards. */
  readonly outdated: number;
  /** The data version the entries belong to; null when nothing is cached. */
  readonly version: number | null;
}

interface Entry {
  readonly rep: Representation;
  /** The cards the answer is made of (by UUID), alone; null for one that may depend on any. */
  readonly cards: readonly string[] | null;
}

/**
 * Answers of one data version, least recently used out first once their bytes pass the budget.
 * Every entry belongs to `version`: storing under another version empties the cache first, so a
 * lookup can never return an answer of an older version. `advance` moves the cache to a newer
 * version keeping the answers made of cards the versions between did not change. A Map keeps
 * insertion order, so re-inserting on a hit makes its first key the least recently used.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private version: number | null = null;
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  private carried = 0;
  private outdated = 0;

  constructor(readonly maxBytes: number) {}

  get(key: string, version: number): Representation | undefined {
    const entry = version === this.version ? this.entries.get(key) : undefined;
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.rep;
  }

  /**
   * Keeps `rep` as the answer to `key` at `version`; one larger than an eighth of the budget is not
   * kept. `cards`: the cards it is made of and nothing else, which lets `advance` carry it over.
   */
  set(key: string, version: number, rep: Representation, cards: readonly string[] | null = null): void {
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.rep.bytes + key.length;
    }
    const size = rep.bytes + key.length;
    if (size > this.maxBytes / 8) return;
    this.entries.set(key, { rep, cards });
    this.bytes += size;
    this.evict();
  }

  /** The version the entries belong to; null when none is cached. */
  get at(): number | null {
    return this.version;
  }

  /**
   * Moves the entries of `from` to `to`: those made of cards outside `changed` stay, the others
   * go; `changed` null (anything may have changed) empties the cache. Nothing happens when the
   * cache is not at `from` (it was emptied or moved meanwhile).
   */
  advance(from: number, to: number, changed: ReadonlySet<string> | null): void {
    if (this.version !== from || to <= from) return;
    if (changed === null) {
      this.outdated += this.entries.size;
      this.clear();
      return;
    }
    for (const [key, entry] of this.entries) {
      if (entry.cards !== null && !entry.cards.some((card) => changed.has(card))) continue;
      this.entries.delete(key);
      this.bytes -= entry.rep.bytes + key.length;
      this.outdated++;
    }
    this.carried += this.entries.size;
    this.version = to;
  }

  /**
   * An entry grew (a coding was added to it): count the growth against the budget. `before` is
   * its size when it was last counted.
   */
  grew(key: string, rep: Representation, before: number): void {
    if (this.entries.get(key)?.rep !== rep) return;
    this.bytes += rep.bytes - before;
    this.evict();
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.version = null;
  }

  stats(): ResponseCacheStats {
    const lookups = this.hits + this.misses;
    return {
      hits: this.hits,
      misses: this.misses,
      hitRatio: lookups === 0 ? null : this.hits / lookups,
      entries: this.entries.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
      evictions: this.evictions,
      carried: this.carried,
      outdated: this.outdated,
      version: this.entries.size === 0 ? null : this.version,
    };
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.rep.bytes + key.length;
      this.evictions++;
    }
  }
}
