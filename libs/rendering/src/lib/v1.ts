import { Card, toMajor, v1Printing, Variant } from '@tcg/domain';
import { emptySeriesStats, PresentedStats, presentStats, SeriesStats } from '@tcg/pricing-stats';
import { firstAfter, members, Series } from './series';
import { HISTORY_DURATIONS, STATISTIC_WINDOWS, StatisticWindow } from './windows';

/**
 * v1's wire format of a variant (docs/spec/interface.md "Variant"), written as JSON text in parts that are
 * rendered once, when observations arrive, and joined per request:
 *
 *   {<identity members>,<statistics members>,<history members>}
 *
 * The statistics members for every window and the history members of the default 7 days are
 * stored beside each NA series; other choices are rendered here from the statistics and history.
 */

/** Every window: the statistics a default request asks for. */
export const ALL_STATISTIC_WINDOWS: ReadonlySet<StatisticWindow> = new Set(STATISTIC_WINDOWS);

/** The history members of a request with `include_price_history=false`. */
export const V1_NO_HISTORY = '"priceHistory":null,"priceHistory30d":null';

/** What a variant without observations shows for every window: the engine's empty statistics. */
const NONE = presentStats(emptySeriesStats());

/**
 * `"price":…,"lastUpdated":…,…,"maxPriceAllTimeDate":…`: the flat statistics of docs/spec/decisions.md,
 * null for windows not in `windows` and for a variant without observations (`stats` null).
 */
export function v1StatsMembers(stats: SeriesStats | null, windows: ReadonlySet<StatisticWindow>): string {
  return v1PresentedMembers(stats ? presentStats(stats) : null, windows);
}

/** `v1StatsMembers` of statistics already presented in USD. */
export function v1PresentedMembers(s: PresentedStats | null, windows: ReadonlySet<StatisticWindow>): string {
  return members(v1StatisticFields(s, windows));
}

/** v1's flat price and statistic fields, by v1 name, in v1's order: what bulk rows carry too. */
export type V1StatisticFields = Readonly<Record<string, number | string | null>>;

/**
 * The flat fields of decisions.md from presented statistics (in any currency: the caller
 * presents them in the series' own), null for windows not in `windows` and for no observations.
 */
export function v1StatisticFields(
  s: PresentedStats | null,
  windows: ReadonlySet<StatisticWindow> = ALL_STATISTIC_WINDOWS,
): V1StatisticFields {
  const pick = <W extends StatisticWindow>(w: W) => (s && windows.has(w) ? s : NONE);
  const w7 = pick('7d')['7d'];
  const w30 = pick('30d')['30d'];
  const w90 = pick('90d')['90d'];
  const y = pick('1y')['1y'];
  const all = pick('allTime').allTime;
  return {
    price: s?.price ?? null,
    lastUpdated: s?.updatedAt ?? null,
    priceChange24hr: s?.change24h ?? null,
    priceChange7d: w7.change,
    avgPrice: w7.avg,
    minPrice7d: w7.min,
    maxPrice7d: w7.max,
    stddevPopPrice7d: w7.stddev,
    covPrice7d: w7.cov,
    iqrPrice7d: w7.iqr,
    trendSlope7d: w7.trendSlope,
    priceChangesCount7d: w7.changesCount,
    priceChange30d: w30.change,
    avgPrice30d: w30.avg,
    minPrice30d: w30.min,
    maxPrice30d: w30.max,
    stddevPopPrice30d: w30.stddev,
    covPrice30d: w30.cov,
    iqrPrice30d: w30.iqr,
    trendSlope30d: w30.trendSlope,
    priceChangesCount30d: w30.changesCount,
    priceRelativeTo30dRange: w30.rangePosition,
    priceChange90d: w90.change,
    avgPrice90d: w90.avg,
    minPrice90d: w90.min,
    maxPrice90d: w90.max,
    stddevPopPrice90d: w90.stddev,
    covPrice90d: w90.cov,
    iqrPrice90d: w90.iqr,
    trendSlope90d: w90.trendSlope,
    priceChangesCount90d: w90.changesCount,
    priceRelativeTo90dRange: w90.rangePosition,
    minPrice1y: y.min,
    maxPrice1y: y.max,
    minPriceAllTime: all.min,
    minPriceAllTimeDate: all.minDate,
    maxPriceAllTime: all.max,
    maxPriceAllTimeDate: all.maxDate,
  };
}

/** `{"p":…,"t":…},…`: the points of `series` from index `from`, prices in USD. */
function points(series: Series, from: number): string {
  let out = '';
  for (let i = from; i < series.t.length; i++) {
    out += `${i === from ? '' : ','}{"p":${toMajor(series.p[i]!)},"t":${series.t[i]!}}`;
  }
  return out;
}

/**
 * `"priceHistory":[…],"priceHistory30d":[…]`: the observations of the `durationSeconds` and of
 * the 30 days back from the variant's latest observation (`latest`; undefined: none, both lists
 * empty). `series` holds at least those (it may start earlier).
 */
export function v1HistoryMembers(
  latest: number | undefined,
  series: Series | undefined,
  durationSeconds: number,
): string {
  if (latest === undefined || !series) return '"priceHistory":[],"priceHistory30d":[]';
  const recent = points(series, firstAfter(series, latest - durationSeconds));
  const thirty = points(series, firstAfter(series, latest - HISTORY_DURATIONS['30d']));
  return `"priceHistory":[${recent}],"priceHistory30d":[${thirty}]`;
}

/**
 * `{"id":…,"uuid":…,"condition":…,"printing":…,"language":…,"vendorSkuId":…,`: the variant's
 * identity members, opened and ready for its statistics members. A variant's identity never
 * changes, so it is rendered once, when the variant is written (`variants.v1_head`).
 */
export function v1VariantHead(v: Variant): string {
  return (
    `{"id":${JSON.stringify(v.id)},"uuid":${JSON.stringify(v.uuid)},` +
    `"condition":${JSON.stringify(v.condition ?? '')},` +
    `"printing":${JSON.stringify(v1Printing(v.printing, v.language))},` +
    `"language":${JSON.stringify(v.language)},"vendorSkuId":${JSON.stringify(v.vendorSkuId)},`
  );
}

/** The card object (docs/spec/interface.md "Card") around its variants' JSON texts. */
export function v1CardJson(c: Card, setName: string, variants: readonly string[]): string {
  return `{${members({
    id: c.id,
    uuid: c.uuid,
    name: c.name,
    game: c.gameId,
    set: c.setId,
    set_name: setName,
    number: c.number,
    vendorId: c.vendorId,
    opensetId: c.opensetId,
    imagedbId: c.imagedbId,
    rarity: c.rarity,
    details: c.details,
  })},"variants":[${variants.join(',')}]}`;
}
