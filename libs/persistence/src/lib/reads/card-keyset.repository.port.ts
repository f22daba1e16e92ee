import type { KeysetPage, KeysetPosition, KeysetQuery } from '@tcg/domain';

/**
 * v2's browse and search by keyset: pages over a total order ending in the card UUID, forward or
 * backward, never by offset. The port v2's pages use, beside its one implementation
 * (`CardKeysetRepository`); inject it with `@Inject(CARD_KEYSET_READS)`.
 */
export interface CardKeysetReads {
  page(query: KeysetQuery, limit: number, position?: KeysetPosition): Promise<KeysetPage>;
  /** How many cards match, or null when counting takes longer than `budgetMs`. */
  count(query: KeysetQuery, budgetMs: number): Promise<number | null>;
}

/** The `CardKeysetReads` bound to `CardKeysetRepository` (on the replicas when configured). */
export const CARD_KEYSET_READS = Symbol('CardKeysetReads');
