import type { Card, CardSet, Game, Grading, Language, Variant } from '@tcg/domain';

/**
 * A catalogue card plus the one figure the price simulator needs. `valueTier` is a half-decade price
 * bucket: the median Near Mint, English, non-foil price of the card is about 10 cents × 10^(tier / 2)
 * (tier 0 ≈ $0.10, 2 ≈ $1, 4 ≈ $10, 6 ≈ $100, 8 ≈ $1,000, 10 ≈ $10,000, 12 ≈ $100,000). It comes
 * from rarity, era, set type and a few famous names; printing, language and condition premiums are
 * applied per variant by the simulator.
 */
export interface CatalogueCard extends Card {
  readonly valueTier: number;
}

export interface Catalogue {
  games: Game[];
  sets: CardSet[];
  cards: CatalogueCard[];
  variants: Variant[];
}

/** A card as a source describes it, before slugs and UUIDs are assigned. */
export interface DraftCard {
  readonly name: string;
  readonly number: string | null;
  readonly rarity: string;
  readonly details: string | null;
  readonly vendorId: string | null;
  readonly opensetId: string | null;
  readonly sealed: boolean;
  readonly valueTier: number;
  /** Print types in display order, distinct by slug; a sealed product has exactly `['Normal']`. */
  readonly printings: readonly string[];
  /** Non-English languages in which every printing exists (English always exists). */
  readonly languages: readonly Language[];
  /** Graded slabs, all in the card's most valuable printing and in English. */
  readonly gradings: readonly Grading[];
}

/** A sealed product (booster, box…) as a card of its set: one `Normal` printing, no grading. */
export function sealedDraft(name: string, valueTier: number): DraftCard {
  return {
    name,
    number: null,
    rarity: 'Sealed',
    details: null,
    vendorId: null,
    opensetId: null,
    sealed: true,
    valueTier,
    printings: ['Normal'],
    languages: [],
    gradings: [],
  };
}

/** A set as a source describes it, with its cards in a stable order. */
export interface DraftSet {
  readonly gameId: string;
  readonly code: string;
  readonly name: string;
  readonly releaseDate: string | null;
  readonly cards: readonly DraftCard[];
}
