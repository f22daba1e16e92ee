// Order statistics for the quartiles, computed in place on scratch space the caller owns.

/**
 * Q3 - Q1 of the first `n` values of `a` (which it reorders), each quartile interpolated linearly
 * between the order statistics around position (n - 1) * q, as numpy's default and PostgreSQL's
 * percentile_cont. Only four order statistics are needed, so they are selected in expected
 * linear time instead of sorting the window.
 */
export function interquartileRange(a: Float64Array, n: number): number {
  const pos1 = (n - 1) * 0.25;
  const pos3 = (n - 1) * 0.75;
  const k1 = Math.floor(pos1);
  const k3 = Math.floor(pos3);
  selectInPlace(a, 0, n - 1, k1);
  const q1Low = a[k1];
  const q1High = pos1 > k1 ? minOf(a, k1 + 1, n - 1) : q1Low;
  let q3Low = q1Low;
  let q3High = q1High;
  if (k3 > k1) {
    // Everything right of k1 is >= a[k1], so the k3-th smallest overall is found among them.
    selectInPlace(a, k1 + 1, n - 1, k3);
    q3Low = a[k3];
    q3High = pos3 > k3 ? minOf(a, k3 + 1, n - 1) : q3Low;
  }
  return lerp(q3Low, q3High, pos3 - k3) - lerp(q1Low, q1High, pos1 - k1);
}

function lerp(low: number, high: number, frac: number): number {
  return frac === 0 ? low : low + (high - low) * frac;
}

function minOf(a: Float64Array, from: number, to: number): number {
  let m = a[from];
  for (let i = from + 1; i <= to; i++) if (a[i] < m) m = a[i];
  return m;
}

/**
 * Reorders a[lo..hi] so that a[k] holds the value it would have if the range were sorted, with
 * nothing larger before it and nothing smaller after it (Hoare's FIND with a median-of-three
 * pivot; its two-sided partition stays balanced on the long flat stretches prices have). Should
 * the pivots keep going badly, the rest of the range is sorted instead, bounding the worst case.
 */
export function selectInPlace(a: Float64Array, lo: number, hi: number, k: number, maxRounds = 64): void {
  let rounds = 0;
  while (lo < hi) {
    if (++rounds > maxRounds) {
      a.subarray(lo, hi + 1).sort();
      return;
    }
    const x = a[lo];
    const y = a[(lo + hi) >>> 1];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (pivot < a[j]) j--;
      if (i <= j) {
        const v = a[i];
        a[i] = a[j];
        a[j] = v;
        i++;
        j--;
      }
    }
    // a[lo..j] <= pivot <= a[i..hi], and anything between equals the pivot: keep k's side.
    if (j < k) lo = i;
    if (k < i) hi = j;
  }
}
