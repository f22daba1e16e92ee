import { restrictsKinds, type VariantFilter } from '@tcg/domain';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { rowSchema } from '../sql/row-schema';
import { variantConditions } from '../sql/variant-conditions';
import type { ResolvedFilter } from './card-fragments';
import { runRead } from './run-read';

const ROW = rowSchema('accepted kinds', { ids: 'int[]' });

/** The ids of the variant kinds (variant_kinds) whose variants the filter accepts. */
export function acceptedKindsStatement(filter: VariantFilter) {
  return sql`SELECT coalesce(array_agg(v.id), '{}') AS ids FROM variant_kinds v WHERE ${variantConditions(filter, false)}`;
}

/**
 * The filter with the ids of the variant kinds it accepts, read from variant_kinds by the same
 * conditions as variants, in a statement of their own: as a parameter of the page's statement
 * rather than a subquery of it, the planner sees how many cards they leave (a subquery's result is
 * unknown when it plans, and the default guess of 1 % made it sort the whole game for a page).
 * The filter as it is where card_facets needs no kinds (a filter on the scope alone) or cannot
 * answer (`updatedAfter`).
 */
export async function readAcceptedKinds(source: ReadSource, filter: VariantFilter): Promise<ResolvedFilter> {
  if (!restrictsKinds(filter) || filter.updatedAfter !== undefined) return filter;
  const [row] = await runRead(source, ROW, acceptedKindsStatement(filter));
  return { ...filter, kinds: row!.ids };
}
