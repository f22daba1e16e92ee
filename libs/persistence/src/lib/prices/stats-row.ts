import { computeSeriesStats, SeriesStats } from '@tcg/pricing-stats';

/** The precomputed row of `variant_prices` for one series, or null for an empty series. */
export interface StatsRow {
  readonly price: number;
  readonly updatedAt: number;
  readonly change24h: number | null;
  readonly change7d: number | null;
  readonly change30d: number | null;
  readonly change90d: number | null;
  /** The price the 7-day change is measured from (`price_7d_ref`), null for a one-point series. */
  readonly reference7d: number | null;
  readonly stats: SeriesStats;
}

export function statsRowOf(t: ArrayLike<number>, p: ArrayLike<number>): StatsRow | null {
  const stats = computeSeriesStats(t, p);
  if (!stats.current) return null;
  return {
    price: stats.current.p,
    updatedAt: stats.current.t,
    change24h: stats['24h'].change,
    change7d: stats['7d'].change,
    change30d: stats['30d'].change,
    change90d: stats['90d'].change,
    reference7d: stats['7d'].reference,
    stats,
  };
}
