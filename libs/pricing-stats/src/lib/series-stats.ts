/**
 * Statistics of one price series (one variant in one region), as defined in docs/spec/decisions.md,
 * "Statistics". Plain functions over parallel arrays: no I/O, no clock, no framework.
 *
 * Input contract (the caller guarantees it; it is not checked, because checking costs a pass):
 * - `t` holds Unix seconds, strictly increasing. Equal times are not allowed: two observations
 *   at the same second must be merged before they get here.
 * - `p` holds prices in integer minor units, >= 0, and is as long as `t`.
 * - A window's price sum stays below 2^53 (true for prices up to 10^9 and windows of up to
 *   ~9 million observations), so the sums below are exact.
 *
 * Every window is anchored at the last observation `t_now`, never at the wall clock, and covers
 * `t_now - W < t <= t_now`; windows are therefore nested suffixes of the series.
 */

import { percentChange } from './change';
import { interquartileRange } from './quartiles';

/** Window lengths in seconds. 1y is 365 days. */
export const WINDOW_SECONDS = Object.freeze({
  '24h': 86_400,
  '7d': 604_800,
  '30d': 2_592_000,
  '90d': 7_776_000,
  '1y': 31_536_000,
} as const);

export type WindowName = keyof typeof WINDOW_SECONDS;

/** A window's change and the price it is measured from. */
export interface WindowChange {
  /** Percent change from the reference observation to the current one (`percentChange`). */
  change: number | null;
  /**
   * The reference observation's price, minor units: the latest observation at or before
   * `t_now - W`, else the window's earliest. Null when the series has no observation but the
   * current one (there is nothing to measure from).
   */
  reference: number | null;
}

export interface FullWindowStats extends WindowChange {
  /** Mean price, minor units. */
  avg: number | null;
  min: number | null;
  max: number | null;
  /** Population standard deviation, minor units. */
  stddev: number | null;
  /** stddev / avg, a ratio (not a percent). */
  cov: number | null;
  /** Q3 - Q1 (linear interpolation, as numpy / percentile_cont), minor units. */
  iqr: number | null;
  /** Least-squares slope, minor units per day. */
  trendSlope: number | null;
  /** Adjacent pairs inside the window whose prices differ. */
  changesCount: number | null;
}

export interface RangeWindowStats extends FullWindowStats {
  /** (p_now - min) / (max - min), in [0, 1]. */
  rangePosition: number | null;
}

export interface ExtremesStats {
  min: number | null;
  max: number | null;
}

export interface AllTimeStats extends ExtremesStats {
  /** UTC date (YYYY-MM-DD) of the earliest observation at the all-time low. */
  minDate: string | null;
  /** UTC date (YYYY-MM-DD) of the earliest observation at the all-time high. */
  maxDate: string | null;
}

export interface SeriesStats {
  /** The latest observation. */
  current: { t: number; p: number } | null;
  /** Observations in the series. */
  count: number;
  '24h': WindowChange;
  '7d': FullWindowStats;
  '30d': RangeWindowStats;
  '90d': RangeWindowStats;
  '1y': ExtremesStats;
  allTime: AllTimeStats;
}

const SECONDS_PER_DAY = 86_400;

function emptyFull(): FullWindowStats {
  return {
    change: null,
    reference: null,
    avg: null,
    min: null,
    max: null,
    stddev: null,
    cov: null,
    iqr: null,
    trendSlope: null,
    changesCount: null,
  };
}

/** The statistics of a series with no observations: every value null. */
export function emptySeriesStats(): SeriesStats {
  return {
    current: null,
    count: 0,
    '24h': { change: null, reference: null },
    '7d': emptyFull(),
    '30d': { ...emptyFull(), rangePosition: null },
    '90d': { ...emptyFull(), rangePosition: null },
    '1y': { min: null, max: null },
    allTime: { min: null, max: null, minDate: null, maxDate: null },
  };
}

/**
 * Computes every window's statistics in one backward pass from the latest observation (sums,
 * extremes, change counts), snapshotting at each window boundary, plus one short pass per
 * 7d/30d/90d window for the spread statistics and the quartiles.
 */
export function computeSeriesStats(t: ArrayLike<number>, p: ArrayLike<number>): SeriesStats {
  const count = t.length;
  if (p.length !== count) {
    throw new RangeError(`times and prices differ in length: ${count} and ${p.length}`);
  }
  if (count === 0) return emptySeriesStats();

  const last = count - 1;
  const tNow = t[last];
  const pNow = p[last];
  const start24h = firstIndexAfter(t, last, tNow - WINDOW_SECONDS['24h']);
  const start7d = firstIndexAfter(t, start24h, tNow - WINDOW_SECONDS['7d']);
  const start30d = firstIndexAfter(t, start7d, tNow - WINDOW_SECONDS['30d']);
  const start90d = firstIndexAfter(t, start30d, tNow - WINDOW_SECONDS['90d']);
  const start1y = firstIndexAfter(t, start90d, tNow - WINDOW_SECONDS['1y']);

  // The backward pass. `i` is the next index to take in; the suffix [i + 1, last] is accumulated.
  // Times are kept relative to t_now (exact integers), so no large offset enters the sums.
  let sumP = pNow;
  let sumDt = 0;
  let min = pNow;
  let max = pNow;
  let minAt = last;
  let maxAt = last;
  let changes = 0;
  let i = last - 1;

  // 7d, 30d, 90d: everything, snapshotted as the walk crosses each boundary.
  const full: FullWindowStats[] = [];
  for (const start of [start7d, start30d, start90d]) {
    for (; i >= start; i--) {
      const pi = p[i];
      sumP += pi;
      sumDt += t[i] - tNow;
      // `<=` / `>=` while walking backward: ties move to the earlier observation.
      if (pi <= min) {
        min = pi;
        minAt = i;
      }
      if (pi >= max) {
        max = pi;
        maxAt = i;
      }
      if (pi !== p[i + 1]) changes++;
    }
    full.push(finishWindow(t, p, start, sumP, sumDt, min, max, changes));
  }
  const [w7d, w30d, w90d] = full;

  // Beyond 90 days only the extremes are needed: up to the 1y boundary, then to the first point.
  const extremes: Extremes = { min, max, minAt, maxAt };
  i = extendExtremes(p, i, start1y, extremes);
  const min1y = extremes.min;
  const max1y = extremes.max;
  extendExtremes(p, i, 0, extremes);
  ({ min, max, minAt, maxAt } = extremes);

  return {
    current: { t: tNow, p: pNow },
    count,
    '24h': changeSince(p, start24h, last),
    '7d': w7d,
    '30d': { ...w30d, rangePosition: rangePosition(pNow, w30d.min, w30d.max) },
    '90d': { ...w90d, rangePosition: rangePosition(pNow, w90d.min, w90d.max) },
    '1y': { min: min1y, max: max1y },
    allTime: { min, max, minDate: utcDate(t[minAt]), maxDate: utcDate(t[maxAt]) },
  };
}

/** Smallest index in [0, hi] whose time is after `threshold`; t[hi] must be after it. */
function firstIndexAfter(t: ArrayLike<number>, hi: number, threshold: number): number {
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] > threshold) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The change to the last observation from the reference: the observation just before the window
 * (the latest at or before t_now - W) if there is one, else the window's earliest. That is the
 * last observation itself only in a one-point series, which has no reference.
 */
function changeSince(p: ArrayLike<number>, start: number, last: number): WindowChange {
  const ref = start > 0 ? start - 1 : 0;
  const reference = ref === last ? null : p[ref];
  return { change: percentChange(p[last], reference), reference };
}

/** Where the current price sits in the window's range: 0 at the low, 1 at the high. */
function rangePosition(pNow: number, min: number | null, max: number | null): number | null {
  return min === null || max === null || max === min ? null : (pNow - min) / (max - min);
}

// Scratch space for the quartiles, reused across calls; grows by doubling.
let scratch = new Float64Array(1024);

/**
 * The window [start, last] from the backward pass's snapshot, plus a second pass over it:
 * deviations from the known means (the corrected two-pass algorithm of Chan, Golub & LeVeque),
 * which stays accurate for prices near 10^9 with a spread of a few units, where a one-pass sum of
 * squares would cancel. The same pass copies the prices out for the quartiles.
 */
function finishWindow(
  t: ArrayLike<number>,
  p: ArrayLike<number>,
  start: number,
  sumP: number,
  sumDt: number,
  min: number,
  max: number,
  changes: number,
): FullWindowStats {
  const last = p.length - 1;
  const n = last - start + 1;
  const tNow = t[last];
  const meanP = sumP / n;
  const meanDt = sumDt / n;

  if (scratch.length < n) {
    let size = scratch.length;
    while (size < n) size *= 2;
    scratch = new Float64Array(size);
  }
  const buf = scratch;

  let sumDevP = 0;
  let sumDevT = 0;
  let spp = 0;
  let stt = 0;
  let stp = 0;
  for (let i = start, k = 0; i <= last; i++, k++) {
    const pi = p[i];
    buf[k] = pi;
    const dp = pi - meanP;
    const dt = t[i] - tNow - meanDt;
    sumDevP += dp;
    sumDevT += dt;
    spp += dp * dp;
    stt += dt * dt;
    stp += dt * dp;
  }
  // The correction terms remove what the rounding of the means left behind; clamp the variance
  // because rounding may push an exact zero a hair below it.
  spp = Math.max(0, spp - (sumDevP * sumDevP) / n);
  stt -= (sumDevT * sumDevT) / n;
  stp -= (sumDevT * sumDevP) / n;

  const stddev = Math.sqrt(spp / n);
  const { change, reference } = changeSince(p, start, last);
  return {
    change,
    reference,
    avg: meanP,
    min,
    max,
    stddev,
    cov: meanP === 0 ? null : stddev / meanP,
    iqr: interquartileRange(buf, n),
    // Per second, times 86400: per day. stt > 0 whenever there are two distinct times.
    trendSlope: n >= 2 && stt > 0 ? (stp / stt) * SECONDS_PER_DAY : null,
    changesCount: changes,
  };
}

/** UTC calendar date of Unix seconds, `YYYY-MM-DD` (days-to-civil, proleptic Gregorian). */
function utcDate(seconds: number): string {
  // Howard Hinnant's civil_from_days, with the era shifted to start on 0000-03-01.
  const z = Math.floor(seconds / SECONDS_PER_DAY) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

interface Extremes {
  min: number;
  max: number;
  minAt: number;
  maxAt: number;
}

/**
 * Walks backward from index `from` down to `to` (inclusive), extending the running extremes; ties
 * move to the earlier observation. Returns the next index to take in.
 */
function extendExtremes(p: ArrayLike<number>, from: number, to: number, e: Extremes): number {
  let i = from;
  for (; i >= to; i--) {
    const pi = p[i];
    if (pi <= e.min) {
      e.min = pi;
      e.minAt = i;
    }
    if (pi >= e.max) {
      e.max = pi;
      e.maxAt = i;
    }
  }
  return i;
}
