import { canonicalGrade, type Condition, type Grading, type Language, type Variant } from '@tcg/domain';
import { printingTraits, type CatalogueCard } from '../catalogue';
import { unitHash } from '../catalogue/stable-hash';

/**
 * The price level of a variant today, in (fractional) cents, before the random walk: the card's
 * tier median, a per-card spread, then printing, language and condition or grade multipliers.
 * All multipliers are documented constants; randomness comes only from hashes of stable ids.
 */

// Bound once: global lookups are slow inside vm contexts (Jest), and these run per variant.
const { pow, max } = Math;

/** Median Near Mint price of a value tier: 10 cents × 10^(tier / 2). */
export function tierMedianCents(valueTier: number): number {
  return 10 * pow(10, valueTier / 2);
}

export const CONDITION_MULTIPLIER: Readonly<Record<Condition, number>> = {
  'Near Mint': 1,
  'Lightly Played': 0.85,
  'Moderately Played': 0.7,
  'Heavily Played': 0.5,
  Damaged: 0.35,
  Sealed: 1,
};

/** Multiples of the Near Mint raw price of the same printing, by canonical grade. */
export const GRADE_MULTIPLIER: Readonly<Record<string, number>> = {
  'PSA 10': 4,
  'PSA 9': 1.6,
  'PSA 8': 1.15,
  'PSA 7': 0.95,
  'PSA 8 (OC)': 0.8,
  'PSA Authentic': 0.6,
  'BGS 10 Black Label': 12,
  'BGS 10 Pristine': 5,
  'BGS 9.5': 2,
  'BGS 9': 1.3,
  'CGC 10 Pristine': 4.5,
  'CGC 9.5': 1.7,
  'CGC 9': 1.15,
  'SGC 10': 3,
  'SGC 9.5': 1.5,
  'BCCG 10': 1.3,
  'BCCG 9': 1.05,
  'BVG 9': 1.8,
  'BVG 8': 1.1,
};

/** A slab costs money to make: no graded card sells below these floors (cents). */
const GRADED_FLOOR_CENTS = 1500;
const GEM_GRADED_FLOOR_CENTS = 3000;

export function gradeMultiplier(grading: Grading, vintage: boolean): number {
  let m = GRADE_MULTIPLIER[canonicalGrade(grading)];
  if (m === undefined)
    m =
      grading.grade === null
        ? 0.6
        : grading.grade >= 10
          ? 3
          : grading.grade >= 9.5
            ? 1.8
            : grading.grade >= 9
              ? 1.3
              : 1;
  // Gem-mint copies of 20th-century cards are scarce: top grades fetch far more.
  if (vintage && grading.grade !== null && grading.grade >= 9.5) m *= 3;
  else if (vintage && grading.grade !== null && grading.grade >= 9) m *= 1.5;
  return m;
}

const MAGIC_LANGUAGE: Readonly<Record<Language, number>> = {
  English: 1,
  Japanese: 1.3,
  Russian: 1.1,
  Korean: 0.9,
  'Chinese (T)': 0.85,
  German: 0.75,
  French: 0.75,
  Italian: 0.75,
  Spanish: 0.75,
  Portuguese: 0.75,
  'Chinese (S)': 0.7,
};

/**
 * Language premium or discount. Magic: Japanese +30 %, most European printings −25 %; old Japanese
 * and Russian foils (before 2004) ×2 more; the 1994–95 foreign black-bordered printings ×0.6.
 * Flesh and Blood: Japanese +20 %, other languages −30 %.
 */
export function languageMultiplier(
  gameId: string,
  language: Language,
  foil: boolean,
  releaseDate: string | null,
): number {
  if (language === 'English') return 1;
  if (gameId === 'flesh-and-blood') return language === 'Japanese' ? 1.2 : 0.7;
  let m = MAGIC_LANGUAGE[language];
  const old = releaseDate !== null && releaseDate < '2004-01-01';
  if (foil && old && (language === 'Japanese' || language === 'Russian')) m *= 2;
  if (releaseDate !== null && releaseDate < '1996-01-01') m *= 0.6;
  return m;
}

/**
 * Printing premium over the card's non-foil level. Magic `Foil`: ×2 (×5 for sets before Eighth
 * Edition, 2003-07-28, whose foils were scarce), times a per-card factor 0.7–1.4. Flesh and Blood:
 * Rainbow ×2.5, Cold ×7, Gold ×20; `1st Edition` ×1.8 on top.
 */
export function printingMultiplier(
  card: CatalogueCard,
  printing: string,
  releaseDate: string | null,
): number {
  const t = printingTraits(printing);
  let m = 1;
  if (t.foil === 'foil') {
    m = releaseDate !== null && releaseDate < '2003-07-28' ? 5 : 2;
    m *= 0.7 + 0.7 * unitHash(`foil:${card.uuid}`);
  } else if (t.foil === 'rainbow') m = 2.5;
  else if (t.foil === 'cold') m = 7;
  else if (t.foil === 'gold') m = 20;
  if (t.firstEdition) m *= 1.8;
  return m;
}

/** Today's level of the variant in fractional cents (rounded to integer cents by the simulator). */
export function variantLevelCents(variant: Variant, card: CatalogueCard, releaseDate: string | null): number {
  // A card-level spread of ±half a tier, so cards of one tier do not all cost the same.
  const spread = pow(10, (unitHash(`level:${card.uuid}`) - 0.5) * 0.5);
  const foil = printingTraits(variant.printing).foil !== 'none';
  const nm =
    tierMedianCents(card.valueTier) *
    spread *
    printingMultiplier(card, variant.printing, releaseDate) *
    languageMultiplier(card.gameId, variant.language, foil, releaseDate);
  if (variant.type === 'raw') return nm * CONDITION_MULTIPLIER[variant.condition];
  const m = gradeMultiplier(variant.grading, releaseDate !== null && releaseDate < '2000-01-01');
  return max(nm * m, m >= 1.5 ? GEM_GRADED_FLOOR_CENTS : GRADED_FLOOR_CENTS);
}
