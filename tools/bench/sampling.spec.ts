import fc from 'fast-check';
import { indexSource, median, percentile, seededRandom, shuffled, ZipfSampler } from './sampling';

describe('seededRandom', () => {
  it('repeats its sequence for a seed and stays in [0, 1)', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(xs[0]);
  });
});

describe('shuffled', () => {
  it('is a permutation, fixed by its seed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer(), (items, seed) => {
        const out = shuffled(items, seed);
        expect([...out].sort((x, y) => x - y)).toEqual([...items].sort((x, y) => x - y));
        expect(shuffled(items, seed)).toEqual(out);
      }),
    );
  });
});

describe('ZipfSampler', () => {
  it('draws only indexes 0..n-1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer(), (n, seed) => {
        const zipf = new ZipfSampler(n, 1, seededRandom(seed));
        for (let i = 0; i < 200; i++) {
          const k = zipf.next();
          expect(Number.isInteger(k) && k >= 0 && k < n).toBe(true);
        }
      }),
    );
  });

  it('gives index k a share close to (1/(k+1)) / H(n) for s = 1', () => {
    const n = 1000;
    const draws = 200_000;
    const zipf = new ZipfSampler(n, 1, seededRandom(7));
    const counts = new Array<number>(n).fill(0);
    for (let i = 0; i < draws; i++) counts[zipf.next()]!++;
    let harmonic = 0;
    for (let k = 1; k <= n; k++) harmonic += 1 / k;
    for (const k of [0, 1, 2, 9, 99]) {
      const expected = 1 / (k + 1) / harmonic;
      expect(zipf.probability(k)).toBeCloseTo(expected, 12);
      // Within 5 standard deviations of the binomial count.
      const sd = Math.sqrt(draws * expected * (1 - expected));
      expect(Math.abs(counts[k]! - draws * expected)).toBeLessThan(5 * sd);
    }
    expect(counts[0]! / counts[1]!).toBeCloseTo(2, 0);
  });

  it('refuses an empty population', () => {
    expect(() => new ZipfSampler(0, 1, Math.random)).toThrow('at least one item');
  });
});

describe('indexSource', () => {
  it('cycles in order', () => {
    const next = indexSource('cycle', 3, 1);
    expect(Array.from({ length: 7 }, next)).toEqual([0, 1, 2, 0, 1, 2, 0]);
  });

  it('spreads uniform draws over every index', () => {
    const next = indexSource('uniform', 10, 3);
    const seen = new Set(Array.from({ length: 1000 }, next));
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('percentile', () => {
  it.each([
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5, 5],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9, 9],
    [[7], 0.99, 7],
    [[1, 2], 0, 1],
  ])('nearest rank of %j at %d is %d', (sorted, q, expected) => {
    expect(percentile(sorted, q)).toBe(expected);
  });

  it('is NaN for no values', () => {
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('median', () => {
  it.each([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[7], 7],
  ])('of %p is %p, whatever the order', (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
  });
});
