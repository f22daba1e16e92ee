import { canonicalGrade, Card, minorUnitsPerMajor, PriceSource, toMajor, Variant } from '@tcg/domain';
import { PresentedStats, PresentedWindow, presentStats, SeriesStats } from '@tcg/pricing-stats';
import { firstAfter, members, Series } from './series';
import { PERIOD_WINDOWS, PeriodWindow } from './windows';

/**
 * v2's wire format of a variant's market (docs/spec/interface.md "Market"), written as JSON text in parts
 * that are rendered once, when observations arrive, and joined per request:
 *
 *   {"region":…,"currency":…,<price members>[,<periods member>][,<history member>]}
 *
 * Each series stores its price members, the periods member with every window and the history
 * member of the default 7 days; other choices are rendered here from the statistics and history.
 */

/** Every window: the periods a default request asks for. */
export const ALL_PERIOD_WINDOWS: ReadonlySet<PeriodWindow> = new Set(PERIOD_WINDOWS);

/**
 * `"price":…,"updated_at":…,"change_24h_pct":…,"source":…` in the currency's major units:
 * `updated_at` is the series' last observation and `source` where its observations come from
 * (null for a market without observations).
 */
export function v2PriceMembers(
  stats: SeriesStats | null,
  currency: string,
  source: PriceSource | null = null,
): string {
  return v2PresentedPriceMembers(stats ? presentStats(stats, minorUnitsPerMajor(currency)) : null, source);
}

/** `v2PriceMembers` of statistics already presented in the currency. */
export function v2PresentedPriceMembers(s: PresentedStats | null, source: PriceSource | null): string {
  return members({
    price: s?.price ?? null,
    updated_at: s?.updatedAt ?? null,
    change_24h_pct: s?.change24h ?? null,
    source: s ? source : null,
  });
}

function fullWindow(w: PresentedWindow, withRange: boolean): object {
  const out: Record<string, number | null> = {
    change_pct: w.change,
    avg: w.avg,
    min: w.min,
    max: w.max,
    stddev: w.stddev,
    cov: w.cov,
    iqr: w.iqr,
    trend_slope: w.trendSlope,
    changes_count: w.changesCount,
  };
  if (withRange) out['range_position'] = w.rangePosition;
  return out;
}

/** `"periods":{…}` with the windows asked for; `{}` for a market without observations. */
export function v2PeriodsMember(
  stats: SeriesStats | null,
  currency: string,
  windows: ReadonlySet<PeriodWindow>,
): string {
  return v2PresentedPeriodsMember(stats ? presentStats(stats, minorUnitsPerMajor(currency)) : null, windows);
}

/** `v2PeriodsMember` of statistics already presented in the currency. */
export function v2PresentedPeriodsMember(
  s: PresentedStats | null,
  windows: ReadonlySet<PeriodWindow>,
): string {
  const out: Record<string, object> = {};
  if (s) {
    if (windows.has('7d')) out['7d'] = fullWindow(s['7d'], false);
    if (windows.has('30d')) out['30d'] = fullWindow(s['30d'], true);
    if (windows.has('90d')) out['90d'] = fullWindow(s['90d'], true);
    if (windows.has('1y')) out['1y'] = { min: s['1y'].min, max: s['1y'].max };
    if (windows.has('all_time'))
      out['all_time'] = {
        min: s.allTime.min,
        max: s.allTime.max,
        min_date: s.allTime.minDate,
        max_date: s.allTime.maxDate,
      };
  }
  return `"periods":${JSON.stringify(out)}`;
}

/**
 * `"price_history":[{"t":…,"p":…},…]`: the observations of the `seconds` back from the market's
 * latest observation (`latest`; undefined: none, an empty list). `series` holds at least those.
 */
export function v2HistoryMember(
  latest: number | undefined,
  series: Series | undefined,
  seconds: number,
  currency: string,
): string {
  if (latest === undefined || !series) return '"price_history":[]';
  const perMajor = minorUnitsPerMajor(currency);
  let out = '';
  for (let i = firstAfter(series, latest - seconds); i < series.t.length; i++) {
    out += `${out === '' ? '' : ','}{"t":${series.t[i]!},"p":${toMajor(series.p[i]!, perMajor)}}`;
  }
  return `"price_history":[${out}]`;
}

/**
 * `{"id":…,…,"grading":…,"markets":[`: the variant's members before its markets, opened and ready
 * for them. A variant's identity never changes, so it is rendered once, when the variant is
 * written (`variants.v2_head`).
 */
export function v2VariantHead(v: Variant): string {
  const g = v.grading;
  return `{${members({
    id: v.uuid,
    slug: v.id,
    type: v.type,
    condition: v.condition,
    printing: v.printing,
    language: v.language === 'English' ? null : v.language,
    external_ids: { vendor_sku: v.vendorSkuId },
    grading: g
      ? {
          company: g.company,
          grade: g.grade,
          grade_label: g.gradeLabel,
          qualifier: g.qualifier,
          canonical: canonicalGrade(g),
        }
      : null,
  })},"markets":[`;
}

/** `{"region":…,"currency":…,`: a market opened and ready for its price members. */
export function v2MarketHead(regionCode: string, currency: string): string {
  return `{"region":${JSON.stringify(regionCode)},"currency":${JSON.stringify(currency)},`;
}

/** The card object (docs/spec/interface.md "CardV2") around its variants' JSON texts. */
export function v2CardJson(c: Card, gameName: string, setName: string, variants: readonly string[]): string {
  return `{${members({
    id: c.uuid,
    slug: c.id,
    name: c.name,
    game: { id: c.gameId, name: gameName },
    set: { id: c.setId, name: setName },
    number: c.number,
    rarity: c.rarity,
    external_ids: { vendor: c.vendorId, imagedb: c.imagedbId, openset: c.opensetId },
    details: c.details,
  })},"variants":[${variants.join(',')}]}`;
}
