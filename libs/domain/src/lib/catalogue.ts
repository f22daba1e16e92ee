import { Condition, conditionSlug } from './conditions';
import { Grading, gradingSlug } from './grading';
import { Language, languageSlug } from './languages';
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
