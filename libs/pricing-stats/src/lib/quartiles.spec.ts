import fc from 'fast-check';
import { interquartileRange, selectInPlace } from './quartiles';

/** The quartiles by their definition: sort, then interpolate at (n - 1) * q. */
function sortedIqr(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const q = (f: number) => {
    const pos = (s.length - 1) * f;
    const lo = Math.floor(pos);
    return lo === pos ? s[lo] : s[lo] + (s[lo + 1] - s[lo]) * (pos - lo);
  };
  return q(0.75) - q(0.25);
}

// Few distinct values make long runs of duplicates, the case that breaks naive partitions.
const values = fc.oneof(
  fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 300, size: 'max' }),
  fc.array(fc.integer({ min: 0, max: 1_000_000_000 }), { minLength: 1, maxLength: 300, size: 'max' }),
);

describe('interquartileRange', () => {
  it.each([
    [[5], 0],
    [[1, 2], 0.5],
    [[1, 2, 3, 4], 1.5],
    [[10, 1, 2, 3, 4], 2],
    [[2, 4, 4, 4, 5, 5, 7, 9], 1.5],
    [[7, 7, 7, 7, 7, 7], 0],
  ])('%j -> %p', (xs, expected) => {
    expect(interquartileRange(Float64Array.from(xs), xs.length)).toBeCloseTo(expected, 12);
  });

  it('matches sorting and interpolating, reading only the first n values', () => {
    fc.assert(
      fc.property(values, fc.array(fc.integer(), { maxLength: 5 }), (xs, junk) => {
        const buf = Float64Array.from([...xs, ...junk]);
        expect(interquartileRange(buf, xs.length)).toBe(sortedIqr(xs));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['ascending', Array.from({ length: 257 }, (_, i) => i)],
    ['descending', Array.from({ length: 257 }, (_, i) => 257 - i)],
    ['organ pipe', Array.from({ length: 257 }, (_, i) => Math.min(i, 256 - i))],
    ['all equal', Array.from({ length: 257 }, () => 42)],
  ])('handles %s input', (_name, xs) => {
    expect(interquartileRange(Float64Array.from(xs), xs.length)).toBe(sortedIqr(xs));
  });
});

describe('selectInPlace', () => {
  it('puts the k-th smallest at k, nothing larger before it, nothing smaller after, even when it gives up early', () => {
    fc.assert(
      fc.property(
        values.chain((xs) => fc.tuple(fc.constant(xs), fc.nat(xs.length - 1), fc.constantFrom(0, 1, 2, 64))),
        ([xs, k, maxRounds]) => {
          const a = Float64Array.from(xs);
          selectInPlace(a, 0, a.length - 1, k, maxRounds);
          const sorted = [...xs].sort((x, y) => x - y);
          expect(a[k]).toBe(sorted[k]);
          expect(a.subarray(0, k).every((v) => v <= a[k])).toBe(true);
          expect(a.subarray(k + 1).every((v) => v >= a[k])).toBe(true);
          expect(Array.from(a).sort((x, y) => x - y)).toEqual(sorted);
        },
      ),
      { numRuns: 300 },
    );
  });
});
