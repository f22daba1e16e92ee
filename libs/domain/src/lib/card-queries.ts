import { DomainError, invalidParameter } from './errors';
import type { Condition } from './conditions';
import type { GradingCompany } from './grading';
import type { Language } from './languages';

// The vocabulary of card queries: what a parsed request asks the read side for, in both API
// versions (their parsers build these; libs/persistence turns them into SQL).

/**
 * The identifiers a card can be named by, most specific first: the one precedence table of both
 * versions' GET parameters, the batch items and the read side (docs/spec/decisions.md: when a
 * request carries several, the most specific wins, and any identifier wins over a search or
 * browse). A variant id or vendor SKU names one variant and through it its card.
 */
export const CARD_IDENTIFIERS = [
  'variantId',
  'vendorSkuId',
  'cardId',
  'vendorId',
  'opensetId',
  'imagedbId',
] as const;
export type CardIdentifier = (typeof CARD_IDENTIFIERS)[number];

/** One identifier and its value: `variantId` and `cardId` take a UUID or a slug. */
export interface IdentifierSelector {
  readonly by: CardIdentifier;
  readonly value: string;
}

/** Which cards a request names: one identifier or a browse. */
export type CardSelector = IdentifierSelector | BrowseSelector;

/**
 * The identifier a request names, by precedence, given how the request spells each one (its
 * parameter's value, or undefined where the version has no such parameter). Every identifier is
 * read, so each is validated even when a more specific one wins.
 */
export function selectIdentifier(
  valueOf: (identifier: CardIdentifier) => string | undefined,
): IdentifierSelector | undefined {
  const values = CARD_IDENTIFIERS.map(valueOf);
  const at = values.findIndex((v) => v !== undefined && v !== '');
  return at < 0 ? undefined : { by: CARD_IDENTIFIERS[at]!, value: values[at]! };
}

export interface BrowseSelector {
  readonly by: 'browse';
  readonly gameId?: string;
  readonly setId?: string;
  readonly number?: string;
  /** Free text on the card name: trigram similarity (typo-tolerant) or substring, best first. */
  readonly q?: string;
}

export interface VariantFilter {
  /** Print types, lower-case; undefined: any. */
  readonly printings?: readonly string[];
  readonly conditions?: readonly Condition[];
  /** Narrows the returned variants only; never removes a card (docs/spec/interface.md language rules). */
  readonly languages?: readonly Language[];
  /** Unix seconds: only variants updated after it; cards left with none are dropped. */
  readonly updatedAfter?: number;
  /** false: drop cards none of whose matching variants has a price. */
  readonly includeNullPrices: boolean;
  /** Raw, graded or both (v2 `graded`); v1 is raw only, the default. */
  readonly graded?: 'exclude' | 'only' | 'include';
  /** Graded variants of this company only (raw ones stay when `graded` is include). */
  readonly gradingCompany?: GradingCompany;
  /** Graded variants of these grades only; null is "Authentic". */
  readonly grades?: readonly (number | null)[];
}

/** Sorting and price floor on each card's highest-priced returned variant (docs/spec/decisions.md). */
export interface CardOrder {
  readonly by?: 'price' | '24h' | '7d' | '30d' | '90d';
  readonly direction: 'asc' | 'desc';
  /** Minor units: only cards whose highest-priced returned variant costs at least this. */
  readonly minPrice?: number;
}

/** What a page of a v2 browse or search is cut from. */
export interface KeysetQuery {
  readonly browse: BrowseSelector;
  readonly filter: VariantFilter;
  /** Storage region of the primary market: sorting and `minPrice` read it only. */
  readonly region: string;
  /** Without it: relevance for a search, set then card number for a browse. */
  readonly orderBy?: 'price' | '24h' | '7d' | '30d';
  readonly direction: 'asc' | 'desc';
  /** Minor units, on the card's highest-priced returned variant in `region`. */
  readonly minPrice?: number;
}

/** A position between two cards of the order, as the text of the sort key of the card before it. */
export interface KeysetPosition {
  readonly key: readonly string[];
  /** true: the page is the one before `key` (a `prev` cursor). */
  readonly backward: boolean;
}

export interface KeysetRow {
  readonly cardUuid: string;
  /** The card's sort key: a cursor pointing just past (or before) this card holds it. */
  readonly key: string[];
}

export interface KeysetPage {
  /** In the order's forward direction, whichever way the page was read. */
  readonly rows: KeysetRow[];
  /** Whether further cards exist in the direction the page was read. */
  readonly more: boolean;
}

/**
 * The most prices a browse's `updated_after` may reach in its region: a delta sync pages through
 * what changed, each page and its count found from those prices alone, so this bounds that work
 * whatever the catalogue's size (at `full`, a page of 200 cards at the cap takes 25 ms of server
 * time, at 1,000 prices 44-51 ms, at 2,000 80 ms). A full copy is the bulk download's job.
 */
export const MAX_UPDATED_PRICES = 500;

/** The 400 for an `updated_after` that reaches more than MAX_UPDATED_PRICES prices. */
export function tooManyUpdates(parameter: string): DomainError {
  return new DomainError(
    'INVALID_REQUEST',
    `Too many prices changed after '${parameter}' (more than ${MAX_UPDATED_PRICES.toLocaleString('en-US')} in this region). Accepted: a later timestamp; for a full copy, the bulk download (/v1/bulk/{game}/{format}).`,
    parameter,
  );
}

/**
 * Refuses a search text without three letters or digits in a row: the name's trigram index
 * matches on three, so a shorter text matches, and ranks, most of the catalogue (issue 22: `q=a`
 * took 0.2 s at `full`). Any script counts.
 */
export function parseSearchText(text: string, parameter: string): string {
  if (!/[\p{L}\p{N}]{3}/u.test(text))
    throw invalidParameter(parameter, text, 'text with at least 3 letters or digits in a row');
  return text;
}

/**
 * Whether a sort or price floor can be refused as unbounded, and which: sorting and `min_price`
 * read each card's highest-priced returned variant (docs/spec/decisions.md). For a filter on the
 * variants' scope alone (raw, graded, both) the summaries hold it for every card; for a filter on
 * their kinds (condition, printing, grading company, grade) or on `updated_after` it is found per
 * card, so a browse must first narrow the cards to a set or a card number (a search of a common
 * word still leaves thousands: `q=the&condition=NM` sorted by price took 0.1 s at `full`).
 */
/** Whether a filter restricts variants beyond their scope (raw, graded or both): their kinds. */
export function restrictsKinds(filter: VariantFilter): boolean {
  return !!(filter.printings || filter.conditions || filter.gradingCompany || filter.grades);
}

/**
 * Whether a filter is on the variants' scope alone (no kind, no `updated_after`): what the card
 * summaries hold for every card, so sorting and `min_price` need no narrowing (`unboundedOrder`).
 */
export function scopeOnly(filter: VariantFilter): boolean {
  return !restrictsKinds(filter) && filter.updatedAfter === undefined;
}

export function unboundedOrder(
  selector: CardSelector,
  filter: VariantFilter,
  order: { readonly by?: string; readonly minPrice?: number },
): 'order' | 'minPrice' | undefined {
  if (selector.by !== 'browse' || selector.setId || selector.number) return undefined;
  if (scopeOnly(filter)) return undefined;
  return order.by !== undefined ? 'order' : order.minPrice !== undefined ? 'minPrice' : undefined;
}

/** The 400 for `unboundedOrder`, naming the version's parameter and the filters that need a set. */
export function orderNeedsSet(parameter: string, filters: string, set: string): DomainError {
  return new DomainError(
    'INVALID_REQUEST',
    `'${parameter}' with ${filters} needs '${set}': each card's best matching variant is then found card by card. Accepted: add '${set}', or sort without those filters.`,
    parameter,
  );
}
