import { roundMoney, roundPct, roundRatio } from '@tcg/domain';
import type { RangeWindowStats, SeriesStats } from './series-stats';

/**
 * One statistics window as clients see it (see `presentStats`): a 30d/90d window's statistics but
 * the reference price, which clients do not get; `rangePosition` null on 7d.
 */
export type PresentedWindow = Omit<RangeWindowStats, 'reference'>;

export interface PresentedStats {
  price: number | null;
  updatedAt: number | null;
  change24h: number | null;
  '7d': PresentedWindow;
  '30d': PresentedWindow;
  '90d': PresentedWindow;
  '1y': { min: number | null; max: number | null };
  allTime: { min: number | null; max: number | null; minDate: string | null; maxDate: string | null };
}

/**
 * Statistics as clients see them: money in major units rounded to 2 decimals, percentages to 2,
 * cov / range position / trend slope to 4 (docs/spec/decisions.md "Rounding happens once, at the edge").
 * One function for v1's flat fields and v2's `periods`, so both versions give the same numbers.
 */
export function presentStats(s: SeriesStats, minorPerMajor = 100): PresentedStats {
  const money = (v: number | null) => (v === null ? null : roundMoney(v / minorPerMajor));
  const ratio = (v: number | null) => (v === null ? null : roundRatio(v));
  const win = (w: SeriesStats['7d'] & { rangePosition?: number | null }): PresentedWindow => ({
    change: roundPct(w.change),
    avg: money(w.avg),
    min: money(w.min),
    max: money(w.max),
    stddev: money(w.stddev),
    cov: ratio(w.cov),
    iqr: money(w.iqr),
    trendSlope: w.trendSlope === null ? null : roundRatio(w.trendSlope / minorPerMajor),
    changesCount: w.changesCount,
    rangePosition: ratio(w.rangePosition ?? null),
  });
  return {
    price: s.current ? money(s.current.p) : null,
    updatedAt: s.current?.t ?? null,
    change24h: roundPct(s['24h'].change),
    '7d': win(s['7d']),
    '30d': win(s['30d']),
    '90d': win(s['90d']),
    '1y': { min: money(s['1y'].min), max: money(s['1y'].max) },
    allTime: {
      min: money(s.allTime.min),
      max: money(s.allTime.max),
      minDate: s.allTime.minDate,
      maxDate: s.allTime.maxDate,
    },
  };
}
