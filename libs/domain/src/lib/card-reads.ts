import type { KeysetPage, KeysetPosition, KeysetQuery } from './card-queries';
import type { Card } from './catalogue';

// The card reads' domain side. The port of the offset pages, lookups and batches answers with JSON
// text rendered at write time and with statistics, types of `@tcg/rendering` and
// `@tcg/pricing-stats`, which depend on this lib: it is written there (`RenderedCardReads`), with
// the card and the joined card from here.

/**
 * A part or the statistics of a series that the read was asked for. Throws when they are absent:
 * the read and its use disagree, and rendering `undefined` into an answer must never happen.
 */
export function required<S extends object, K extends keyof S>(s: S, key: K): NonNullable<S[K]> {
  const value = s[key];
  if (value === undefined || value === null) throw new Error(`a series was read without its ${String(key)}`);
  return value as NonNullable<S[K]>;
}

/** A card with its variants' JSON texts already joined, comma-separated ('' for none). */
export interface JoinedCard {
  readonly card: Card;
  readonly setName: string;
  readonly gameName: string;
  readonly variantsJson: string;
}

/**
 * v2's browse and search by keyset: pages over a total order ending in the card UUID, forward or
 * backward, never by offset. Implemented in `@tcg/persistence` (`CardKeysetRepository`), bound to
 * the `CARD_KEYSET_READS` token.
 */
export interface CardKeysetReads {
  page(query: KeysetQuery, limit: number, position?: KeysetPosition): Promise<KeysetPage>;
  /** How many cards match, or null when counting takes longer than `budgetMs`. */
  count(query: KeysetQuery, budgetMs: number): Promise<number | null>;
}
