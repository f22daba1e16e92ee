import { variantSlug, type Condition, type Grading, type Language } from '@tcg/domain';

/**
 * A bulk version of the domain's `variantSlug`, for catalogues of a million variants: it computes
 * exactly what `variantSlug` computes (the spec checks that) without re-slugging the same few
 * printing, language and condition names for every variant.
 */

const suffixCache = new Map<string, string>();

/**
 * `variantSlug(cardId, v)`: the domain joins the card slug and the variant's parts with `_`, so the
 * part after the card slug depends only on (printing, language, condition or grading) and is cached.
 */
export function variantId(
  cardId: string,
  v: { printing: string; language: Language } & (
    { condition: Condition; grading?: null } | { condition?: null; grading: Grading }
  ),
): string {
  const key = v.grading
    ? `g|${v.printing}|${v.language}|${v.grading.company}|${v.grading.grade}|${v.grading.gradeLabel}|${v.grading.qualifier}`
    : `r|${v.printing}|${v.language}|${v.condition}`;
  let suffix = suffixCache.get(key);
  if (suffix === undefined) {
    suffix = variantSlug('', v);
    suffixCache.set(key, suffix);
  }
  return cardId + suffix;
}
