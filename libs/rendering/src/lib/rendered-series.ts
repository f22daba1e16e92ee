import { minorUnitsPerMajor, PriceSource } from '@tcg/domain';
import { presentStats, SeriesStats } from '@tcg/pricing-stats';
import { Series } from './series';
import { ALL_STATISTIC_WINDOWS, v1HistoryMembers, v1PresentedMembers } from './v1';
import { ALL_PERIOD_WINDOWS, v2HistoryMember, v2PresentedPeriodsMember, v2PresentedPriceMembers } from './v2';
import { DEFAULT_HISTORY_SECONDS } from './windows';

/** The storage region v1 answers from (v1 prices are NA, that is US, prices). */
export const V1_REGION = 'NA';

/**
 * The parts of a series' JSON that a request with default options needs, rendered when the
 * series' observations arrive and stored beside its statistics (`variant_prices`), so that a
 * read joins text instead of building and serialising objects.
 */
export interface RenderedSeries {
  /** v1 statistics members, every window; null outside v1's region. */
  readonly v1Stats: string | null;
  /** v1 history members of the default 7 days; null outside v1's region. */
  readonly v1History: string | null;
  readonly v2Price: string;
  /** v2 periods member, every window. */
  readonly v2Periods: string;
  /** v2 history member of the default 7 days. */
  readonly v2History: string;
}

/** A whole series (ascending) in a storage region quoted in `currency`, with its statistics and source. */
export function renderSeries(
  region: string,
  currency: string,
  stats: SeriesStats,
  series: Series,
  source: PriceSource,
): RenderedSeries {
  const latest = stats.current?.t;
  const presented = presentStats(stats, minorUnitsPerMajor(currency));
  // v1 quotes USD, the currency of its region.
  const v1 = region === V1_REGION;
  return {
    v1Stats: v1 ? v1PresentedMembers(presented, ALL_STATISTIC_WINDOWS) : null,
    v1History: v1 ? v1HistoryMembers(latest, series, DEFAULT_HISTORY_SECONDS) : null,
    v2Price: v2PresentedPriceMembers(presented, source),
    v2Periods: v2PresentedPeriodsMember(presented, ALL_PERIOD_WINDOWS),
    v2History: v2HistoryMember(latest, series, DEFAULT_HISTORY_SECONDS, currency),
  };
}
