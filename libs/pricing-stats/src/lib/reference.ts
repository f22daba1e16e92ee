/**
 * A slow, literal implementation of docs/spec/decisions.md "Statistics", used only by the tests as the
 * oracle for `computeSeriesStats`. Each statistic is its formula over `Array.filter`ed windows;
 * nothing is shared with the fast engine but the output types. Not exported from the library.
 */
import type { FullWindowStats, SeriesStats, WindowChange } from './series-stats';

interface Observation {
  t: number;
  p: number;
}

const DAY = 24 * 60 * 60;
const WINDOWS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '90d': 90 * DAY, '1y': 365 * DAY };

export function referenceSeriesStats(t: ArrayLike<number>, p: ArrayLike<number>): SeriesStats {
  const all: Observation[] = Array.from({ length: t.length }, (_, i) => ({ t: t[i], p: p[i] }));
  // No observations: no current point, a count of 0, every statistic of a one-point series null.
  if (all.length === 0) return { ...nullLeaves(referenceSeriesStats([0], [1])), current: null, count: 0 };
  const now = all[all.length - 1];
  const windowOf = (seconds: number) => all.filter((o) => now.t - seconds < o.t && o.t <= now.t);

  const change = (seconds: number): WindowChange => {
    const before = all.filter((o) => o.t <= now.t - seconds);
    const ref = before.length > 0 ? before[before.length - 1] : windowOf(seconds)[0];
    if (ref === now) return { change: null, reference: null };
    return { change: ref.p === 0 ? null : ((now.p - ref.p) / ref.p) * 100, reference: ref.p };
  };

  const full = (seconds: number): FullWindowStats => {
    const w = windowOf(seconds);
    const prices = w.map((o) => o.p);
    const n = prices.length;
    const avg = prices.reduce((a, b) => a + b, 0) / n;
    const stddev = Math.sqrt(prices.reduce((a, b) => a + (b - avg) ** 2, 0) / n);
    const sorted = [...prices].sort((a, b) => a - b);
    const quantile = (q: number) => {
      const pos = (n - 1) * q;
      const lower = sorted[Math.floor(pos)];
      const upper = sorted[Math.ceil(pos)];
      return lower + (upper - lower) * (pos - Math.floor(pos));
    };
    const days = w.map((o) => (o.t - now.t) / DAY);
    const meanDay = days.reduce((a, b) => a + b, 0) / n;
    const sxy = w.reduce((a, o, i) => a + (days[i] - meanDay) * (o.p - avg), 0);
    const sxx = days.reduce((a, d) => a + (d - meanDay) ** 2, 0);
    let changesCount = 0;
    for (let i = 1; i < n; i++) if (w[i].p !== w[i - 1].p) changesCount++;
    return {
      ...change(seconds),
      avg,
      min: Math.min(...prices),
      max: Math.max(...prices),
      stddev,
      cov: avg === 0 ? null : stddev / avg,
      iqr: quantile(0.75) - quantile(0.25),
      trendSlope: new Set(w.map((o) => o.t)).size < 2 ? null : sxy / sxx,
      changesCount,
    };
  };

  const withRange = (seconds: number) => {
    const s = full(seconds);
    const { min, max } = s as { min: number; max: number };
    return { ...s, rangePosition: max === min ? null : (now.p - min) / (max - min) };
  };

  const year = windowOf(WINDOWS['1y']).map((o) => o.p);
  const prices = all.map((o) => o.p);
  const min = Math.min(...prices);
  const max = Math.max(...prices);
  const dateOf = (o: Observation | undefined) => (o ? new Date(o.t * 1000).toISOString().slice(0, 10) : null);

  return {
    current: { t: now.t, p: now.p },
    count: all.length,
    '24h': change(WINDOWS['24h']),
    '7d': full(WINDOWS['7d']),
    '30d': withRange(WINDOWS['30d']),
    '90d': withRange(WINDOWS['90d']),
    '1y': { min: Math.min(...year), max: Math.max(...year) },
    allTime: {
      min,
      max,
      minDate: dateOf(all.find((o) => o.p === min)),
      maxDate: dateOf(all.find((o) => o.p === max)),
    },
  };
}

/** The same object with every number and string in it null. */
function nullLeaves<T>(value: T): T {
  if (value === null || typeof value !== 'object') return null as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nullLeaves(v)])) as T;
}
