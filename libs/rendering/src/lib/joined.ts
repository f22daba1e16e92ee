import { parseRegion } from '@tcg/domain';
import { RenderedSeries, V1_REGION } from './rendered-series';
import { ALL_STATISTIC_WINDOWS, V1_NO_HISTORY, v1HistoryMembers, v1StatsMembers } from './v1';
import { ALL_PERIOD_WINDOWS, v2HistoryMember, v2MarketHead, v2PeriodsMember, v2PriceMembers } from './v2';
import { DEFAULT_HISTORY_SECONDS } from './windows';

/**
 * How a variant's JSON is joined from stored text (in SQL, see persistence's
 * `CardQueryRepository`): its stored head (`v1_head` or `v2_head`), `open`, the members in order
 * (a stored part, or `missing` for a variant without that series; or fixed text), then `close`.
 */
export interface JoinedVariantJson {
  readonly head: 'v1' | 'v2';
  readonly open: string;
  readonly members: readonly (
    { readonly part: keyof RenderedSeries; readonly missing: string } | { readonly text: string }
  )[];
  readonly close: string;
}

/** A v1 variant without observations, with every window. */
export const V1_UNPRICED_STATS = v1StatsMembers(null, ALL_STATISTIC_WINDOWS);
/** A v1 variant without observations, with the default history. */
export const V1_NO_POINTS = v1HistoryMembers(undefined, undefined, DEFAULT_HISTORY_SECONDS);

/** A v1 variant with every statistics window and the default history, or no history. */
export function v1JoinedJson(withHistory: boolean): JoinedVariantJson {
  return withHistory ? V1_WITH_HISTORY : V1_WITHOUT_HISTORY;
}

const V1_WITH_HISTORY: JoinedVariantJson = {
  head: 'v1',
  open: '',
  members: [
    { part: 'v1Stats', missing: V1_UNPRICED_STATS },
    { part: 'v1History', missing: V1_NO_POINTS },
  ],
  close: '}',
};
const V1_WITHOUT_HISTORY: JoinedVariantJson = {
  ...V1_WITH_HISTORY,
  members: [V1_WITH_HISTORY.members[0]!, { text: V1_NO_HISTORY }],
};

/**
 * A v2 market without observations, per part and currency: rendered once per currency. Without
 * observations the periods are `{}` and the history `[]` whatever windows are asked for.
 */
export function v2Unpriced(currency: string): { price: string; periods: string; history: string } {
  let parts = V2_UNPRICED.get(currency);
  if (!parts) {
    parts = {
      price: v2PriceMembers(null, currency),
      periods: v2PeriodsMember(null, currency, ALL_PERIOD_WINDOWS),
      history: v2HistoryMember(undefined, undefined, DEFAULT_HISTORY_SECONDS, currency),
    };
    V2_UNPRICED.set(currency, parts);
  }
  return parts;
}
const V2_UNPRICED = new Map<string, { price: string; periods: string; history: string }>();

/**
 * A v2 variant with one market: its price, every period window or none, the default history or none.
 * Built once per market and options: a request's is a lookup, and equal specifications are one object.
 */
export function v2JoinedJson(
  regionCode: string,
  currency: string,
  withPeriods: boolean,
  withHistory: boolean,
): JoinedVariantJson {
  const key = `${regionCode}|${currency}|${withPeriods}|${withHistory}`;
  let json = V2_JOINED.get(key);
  if (json === undefined) {
    json = buildV2JoinedJson(regionCode, currency, withPeriods, withHistory);
    V2_JOINED.set(key, json);
  }
  return json;
}
/** Bounded: markets and currencies are the domain's, validated before they get here. */
const V2_JOINED = new Map<string, JoinedVariantJson>();

function buildV2JoinedJson(
  regionCode: string,
  currency: string,
  withPeriods: boolean,
  withHistory: boolean,
): JoinedVariantJson {
  const missing = v2Unpriced(currency);
  return {
    head: 'v2',
    open: v2MarketHead(regionCode, currency),
    members: [
      { part: 'v2Price', missing: missing.price },
      ...(withPeriods ? [{ part: 'v2Periods' as const, missing: missing.periods }] : []),
      ...(withHistory ? [{ part: 'v2History' as const, missing: missing.history }] : []),
    ],
    close: '}]}',
  };
}

/**
 * A card's variants joined as a request with common options sends them (each version's defaults,
 * and v1 without history), rendered whenever the card's variants or their prices change and
 * stored per card (`card_documents`), so that a lookup, a search page or a batch with those
 * options reads one text per card instead of joining its variants' parts. Each holds the raw
 * variants (every request's default scope) with their series in `region`.
 */
export interface CardDocument {
  /** Its `card_documents` column. */
  readonly column: 'v1_variants' | 'v1_bare_variants' | 'v2_variants';
  readonly region: string;
  readonly json: JoinedVariantJson;
}

const NA = parseRegion('NA')!;

export const CARD_DOCUMENTS: readonly CardDocument[] = [
  // GET /v1/cards with default options: every statistics window, 7 days of history.
  { column: 'v1_variants', region: V1_REGION, json: v1JoinedJson(true) },
  // GET and POST (batch) /v1/cards with include_price_history=false: every window, no history.
  { column: 'v1_bare_variants', region: V1_REGION, json: v1JoinedJson(false) },
  // GET /v2/cards with default options: the NA market, every period, 7 days of history.
  { column: 'v2_variants', region: NA.storageRegion, json: v2JoinedJson(NA.code, NA.currency, true, true) },
];
