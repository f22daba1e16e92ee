/**
 * How the benchmark draws what it requests: a seeded generator (so two runs ask for the same cards
 * in the same order), a fixed random permutation of the catalogue, and a Zipf(s) popularity over it.
 */

/** A seeded 32-bit generator (mulberry32) returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A copy of `items` in a random order fixed by `seed` (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Draws indexes 0..n-1 where index k has weight 1/(k+1)^s: index 0 is the most popular. Inverse
 * transform over the cumulative weights, so a draw is one binary search.
 */
export class ZipfSampler {
  private readonly cumulative: Float64Array;

  constructor(
    readonly n: number,
    readonly s: number,
    private readonly random: () => number,
  ) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`Zipf needs at least one item (got ${n})`);
    this.cumulative = new Float64Array(n);
    let sum = 0;
    for (let k = 0; k < n; k++) this.cumulative[k] = sum += 1 / Math.pow(k + 1, s);
  }

  /** The probability of index `k`. */
  probability(k: number): number {
    return 1 / Math.pow(k + 1, this.s) / this.cumulative[this.n - 1]!;
  }

  next(): number {
    const target = this.random() * this.cumulative[this.n - 1]!;
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

export type Distribution = 'uniform' | 'zipf' | 'cycle';

/** A source of indexes 0..n-1: uniform, Zipf(s=1) by position, or in order and round again. */
export function indexSource(distribution: Distribution, n: number, seed: number): () => number {
  const random = seededRandom(seed);
  if (distribution === 'zipf') {
    const zipf = new ZipfSampler(n, 1, random);
    return () => zipf.next();
  }
  if (distribution === 'cycle') {
    let i = 0;
    return () => i++ % n;
  }
  return () => Math.floor(random() * n);
}

/** The value at quantile `q` of ascending `sorted` (nearest rank); NaN when empty. */
/** The middle of some values (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
