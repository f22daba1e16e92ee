import type { VariantFilter } from '@tcg/domain';
import { sql } from 'kysely';
import { and, inByPosition, type Sql } from './compile';

// The variant filters as SQL, the one form both the reads that return a card's variants and the
// stored card documents (documents/card-documents.ts: the scope they hold) are built from.

/**
 * How a statement names a filter's lists of values. `any`: `= ANY($n)`, which PostgreSQL plans
 * for the values at each execution. `byPosition`: each list read by position over a fixed count
 * (`POSITIONS`, `inByPosition`), so a statement run again and again keeps one generic plan: a card lookup with `condition=NM` took 0.65-0.86 ms in `= ANY` form,
 * planned every time, and 0.24-0.31 ms by position on `tcg_bench_full`. Only for lists of at most
 * POSITIONS values (`listsFit`).
 */
export type ListForm = 'any' | 'byPosition';

/** The positions a list read `byPosition` has: more than any parsed filter list holds in practice. */
export const POSITIONS = 16;

/** Whether every list of the filter fits `byPosition` form. */
export function listsFit(filter: VariantFilter): boolean {
  const lists = [filter.grades, filter.printings, filter.conditions, filter.languages];
  return lists.every((list) => list === undefined || list.length <= POSITIONS);
}

/** `column` is one of `values` (of SQL type `type`), in the list form asked for. */
function oneOf(column: Sql, values: readonly unknown[], type: 'text' | 'numeric', form: ListForm): Sql {
  const array = sql`${values}::${sql.raw(type)}[]`;
  return form === 'any' ? sql`${column} = ANY(${array})` : inByPosition(column, array, POSITIONS);
}

/** SQL over `v` (variants) and `vp` (its prices in the primary region) for the variant filters. */
export function variantConditions(
  filter: VariantFilter,
  withLanguage: boolean,
  onlySku?: string,
  lists: ListForm = 'any',
): Sql {
  if (lists === 'byPosition' && !listsFit(filter)) throw new Error('a filter list is longer than POSITIONS');
  const graded = filter.graded ?? 'exclude';
  const c: Sql[] =
    graded === 'include' ? [] : [sql`v.type = ${sql.lit(graded === 'only' ? 'graded' : 'raw')}`];
  if (filter.gradingCompany) c.push(sql`(v.type = 'raw' OR v.grading_company = ${filter.gradingCompany})`);
  if (filter.grades) {
    const numeric = filter.grades.filter((g): g is number => g !== null);
    const authentic = filter.grades.includes(null) ? sql` OR v.grade IS NULL` : sql``;
    c.push(sql`(v.type = 'raw' OR ${oneOf(sql`v.grade`, numeric, 'numeric', lists)}${authentic})`);
  }
  if (filter.printings) c.push(oneOf(sql`lower(v.printing)`, filter.printings, 'text', lists));
  if (filter.conditions) c.push(oneOf(sql`v.condition`, filter.conditions, 'text', lists));
  if (withLanguage && filter.languages) c.push(oneOf(sql`v.language`, filter.languages, 'text', lists));
  // `+ 0`: these conditions pick a card's own variants, and a plain comparison let the planner,
  // whose statistics put one price after a recent instant, read every recent price through the
  // (region, updated_at) index once per card (5 s for a page once 10,000 prices had changed).
  if (filter.updatedAfter !== undefined) c.push(sql`vp.updated_at + 0 > ${filter.updatedAfter}`);
  if (onlySku) c.push(sql`v.vendor_sku_id = ${onlySku}`);
  return c.length === 0 ? sql`true` : and(c);
}
