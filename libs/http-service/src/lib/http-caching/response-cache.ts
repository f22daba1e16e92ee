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
  /** The data version the entries belong to; null when nothing is cached. */
  readonly version: number | null;
}

/**
 * Answers of one data version, least recently used out first once their bytes pass the budget.
 * Every entry belongs to `version`: storing under another version empties the cache first, so a
 * lookup can never return an answer of an older version. A Map keeps insertion order, so
 * re-inserting on a hit makes its first key the least recently used.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Representation>();
  private version: number | null = null;
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

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
    return entry;
  }

  /** Keeps `entry` as the answer to `key` at `version`; one larger than an eighth of the budget is not kept. */
  set(key: string, version: number, entry: Representation): void {
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.bytes + key.length;
    }
    const size = entry.bytes + key.length;
    if (size > this.maxBytes / 8) return;
    this.entries.set(key, entry);
    this.bytes += size;
    this.evict();
  }

  /**
   * An entry grew (a coding was added to it): count the growth against the budget. `before` is
   * its size when it was last counted.
   */
  grew(key: string, entry: Representation, before: number): void {
    if (this.entries.get(key) !== entry) return;
    this.bytes += entry.bytes - before;
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
      version: this.entries.size === 0 ? null : this.version,
    };
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.bytes + key.length;
      this.evictions++;
    }
  }
}
