import type { VariantFilter } from '@tcg/domain';
import { sql } from 'kysely';
import { and, type Sql } from './compile';

// The variant filters as SQL, the one form both the reads that return a card's variants and the
// stored card documents (documents/card-documents.ts: the scope they hold) are built from.

/** SQL over `v` (variants) and `vp` (its prices in the primary region) for the variant filters. */
export function variantConditions(filter: VariantFilter, withLanguage: boolean, onlySku?: string): Sql {
  const graded = filter.graded ?? 'exclude';
  const c: Sql[] =
    graded === 'include' ? [] : [sql`v.type = ${sql.lit(graded === 'only' ? 'graded' : 'raw')}`];
  if (filter.gradingCompany) c.push(sql`(v.type = 'raw' OR v.grading_company = ${filter.gradingCompany})`);
  if (filter.grades) {
    const numeric = filter.grades.filter((g): g is number => g !== null);
    const authentic = filter.grades.includes(null) ? sql` OR v.grade IS NULL` : sql``;
    c.push(sql`(v.type = 'raw' OR v.grade = ANY(${numeric}::numeric[])${authentic})`);
  }
  if (filter.printings) c.push(sql`lower(v.printing) = ANY(${filter.printings}::text[])`);
  if (filter.conditions) c.push(sql`v.condition = ANY(${filter.conditions}::text[])`);
  if (withLanguage && filter.languages) c.push(sql`v.language = ANY(${filter.languages}::text[])`);
  // `+ 0`: these conditions pick a card's own variants, and a plain comparison let the planner,
  // whose statistics put one price after a recent instant, read every recent price through the
  // (region, updated_at) index once per card (5 s for a page once 10,000 prices had changed).
  if (filter.updatedAfter !== undefined) c.push(sql`vp.updated_at + 0 > ${filter.updatedAfter}`);
  if (onlySku) c.push(sql`v.vendor_sku_id = ${onlySku}`);
  return c.length === 0 ? sql`true` : and(c);
}
