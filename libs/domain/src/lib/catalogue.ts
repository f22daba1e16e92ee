import { Condition, conditionSlug } from './conditions';
import { Grading, gradingSlug } from './grading';
import { Language, languageSlug } from './languages';
import type { PriceSource } from './observations';
import { slugify } from './slug';

export interface Game {
  /** Slug, e.g. `magic-the-gathering`. */
  readonly id: string;
  readonly name: string;
}

export interface CardSet {
  readonly uuid: string;
  /** Slug, unique across games (prefixed by the game slug). */
  readonly id: string;
  readonly gameId: string;
  readonly name: string;
  /** The publisher's set code (e.g. `AER`, `WTR`). */
  readonly code: string;
  /** ISO date `YYYY-MM-DD`, or null when unknown. */
  readonly releaseDate: string | null;
}

export interface Card {
  readonly uuid: string;
  /** Slug `game-set-name-rarity` (docs/spec/decisions.md). */
  readonly id: string;
  readonly gameId: string;
  /** The set's slug (`CardSet.id`), as v1 returns it in `set`. */
  readonly setId: string;
  readonly name: string;
  readonly number: string | null;
  readonly rarity: string | null;
  readonly details: string | null;
  readonly vendorId: string | null;
  readonly opensetId: string | null;
  readonly imagedbId: string | null;
  /** Sealed products (boosters, boxes) are cards of their set with rarity `Sealed`. */
  readonly sealed: boolean;
}

interface VariantBase {
  readonly uuid: string;
  /** Slug, see `variantSlug`. */
  readonly id: string;
  readonly cardUuid: string;
  /** Print type only (`Normal`, `Foil`, `Rainbow Foil`); never carries a language suffix. */
  readonly printing: string;
  readonly language: Language;
  readonly vendorSkuId: string | null;
}

export interface RawVariant extends VariantBase {
  readonly type: 'raw';
  readonly condition: Condition;
  readonly grading: null;
}

export interface GradedVariant extends VariantBase {
  readonly type: 'graded';
  readonly condition: null;
  readonly grading: Grading;
}

export type Variant = RawVariant | GradedVariant;

/**
 * Variant slug (docs/spec/decisions.md): `<cardSlug>_<condition>_<printing>[_<language>]`; a graded variant has
 * `<company>-<grade>[-<label>][-<qualifier>]` in place of the condition.
 */
export function variantSlug(
  cardSlugValue: string,
  v: { printing: string; language: Language } & (
    { condition: Condition; grading?: null } | { condition?: null; grading: Grading }
  ),
): string {
  const first = v.grading ? gradingSlug(v.grading) : conditionSlug(v.condition!);
  const parts = [cardSlugValue, first, slugify(v.printing)];
  if (v.language !== 'English') parts.push(languageSlug(v.language));
  return parts.join('_');
}

/** v1 shows a non-English variant's printing with a language suffix: `Normal - Japanese`. */
export function v1Printing(printing: string, language: Language): string {
  return language === 'English' ? printing : `${printing} - ${language}`;
}

/** A card name, distinct within its game, with how many cards carry it. */
export interface NameSuggestion {
  readonly name: string;
  readonly gameId: string;
  readonly cardsCount: number;
  /** `prefix`: a word of the name starts with the text; `similar`: the name is close to it (a typo). */
  readonly match: 'prefix' | 'similar';
}

/** A game and its precomputed counts and market index (NA, raw variants). */
export interface GameSummary {
  readonly game: Game;
  readonly cardsCount: number;
  readonly variantsCount: number;
  readonly sealedCount: number;
  readonly setsCount: number;
  /** Latest observation time (Unix seconds) among the game's prices, or null with none. */
  readonly lastUpdated: number | null;
  /** Sum over cards of their highest-priced raw variant, in cents. */
  readonly valueIndexCents: number;
  /**
   * The same sum 7 days earlier: each of those variants' price the 7-day change is measured from
   * (its current price when it has only one observation), in cents; null with no prices.
   */
  readonly valueIndex7dAgoCents: number | null;
  /** The sources of the game's priced series, sorted; `simulated` among them marks generated prices. */
  readonly priceSources: readonly PriceSource[];
}

export interface SetSummary {
  readonly set: CardSet;
  readonly gameName: string;
  readonly cardsCount: number;
  /** Sum over cards of their highest-priced raw variant, in cents. */
  readonly valueCents: number;
}
