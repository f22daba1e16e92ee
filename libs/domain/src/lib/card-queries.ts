import type { Condition } from './conditions';
import type { GradingCompany } from './grading';
import type { Language } from './languages';

// The vocabulary of card queries: what a parsed request asks the read side for, in both API
// versions (their parsers build these; libs/persistence turns them into SQL).

/** Which cards a request names: one identifier (in docs/spec/decisions.md precedence) or a browse. */
export type CardSelector =
  | { readonly by: 'variant'; readonly ref: string }
  | { readonly by: 'vendorSku'; readonly sku: string }
  | { readonly by: 'card'; readonly ref: string }
  | { readonly by: 'vendorId' | 'opensetId' | 'imagedbId'; readonly value: string }
  | BrowseSelector;

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

/** The identifiers a batch item may carry (docs/spec/interface.md BatchCardRequestItem). */
export type BatchIdentifier = 'variantId' | 'vendorSkuId' | 'cardId' | 'vendorId' | 'opensetId' | 'imagedbId';
