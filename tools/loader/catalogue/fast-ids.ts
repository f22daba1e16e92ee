import { createHash } from 'node:crypto';
import { TCG_UUID_NAMESPACE, variantSlug, type Condition, type Grading, type Language } from '@tcg/domain';

/**
 * Bulk versions of the domain's id functions, for catalogues of a million variants. They compute
 * exactly what `uuidV5` and `variantSlug` of `@tcg/domain` compute (the spec checks that), minus the
 * per-call parsing of the namespace and re-slugging of the same few printing names.
 */
const NAMESPACE_BYTES = Buffer.from(TCG_UUID_NAMESPACE.replace(/-/g, ''), 'hex');

/** RFC 9562 version-5 UUID of `name` under the project namespace (same result as the domain's `uuidV5`). */
export function projectUuid(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE_BYTES).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = hash.toString('hex', 0, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

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
