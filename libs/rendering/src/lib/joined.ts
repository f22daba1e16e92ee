import { parseRegion } from '@tcg/domain';
import { RenderedSeries, V1_REGION } from './rendered-series';
import { v1JoinedJson } from './views/v1-views';
import { v2JoinedJson } from './views/v2-views';

/** A member of a variant's JSON stored as text: a series' part (`missing` without that series), or fixed text. */
export type StoredMember =
  { readonly part: keyof RenderedSeries; readonly missing: string } | { readonly text: string };

/**
 * How a variant's JSON is joined from stored text (in SQL, see persistence's
 * `CardQueryRepository`): its stored head (`v1_head` or `v2_head`), `open`, the members in order
 * (a stored part, or `missing` for a variant without that series; or fixed text), then `close`.
 */
export interface JoinedVariantJson {
  readonly head: 'v1' | 'v2';
  readonly open: string;
  readonly members: readonly StoredMember[];
  readonly close: string;
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
