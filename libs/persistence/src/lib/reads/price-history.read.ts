import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { runRead } from './run-read';

/** A month of a variant's series: its start (Unix seconds, bigint as text) and its arrays as text. */
const ROW = rowSchema('price history', {
  variant_uuid: 'string',
  month_start: 'string',
  offsets: 'string',
  prices: 'string',
});
export type PriceHistoryRow = RowOf<typeof ROW>;

export interface PriceHistoryQuery {
  readonly region: string;
  /** Per variant, the first month (`YYYY-MM-DD`) to read. */
  readonly variantUuids: readonly string[];
  readonly firstMonths: readonly string[];
}

/**
 * The month rows of each variant from its own first month, per variant in time order. Arrays in
 * their text form (`{1,2,3}`), split by the caller: several times cheaper than the driver's
 * general array parser, and cheaper for the server than array_to_string, whose per-element calls
 * made it the costliest part of a batch's history query.
 */
export function priceHistoryStatement({ region, variantUuids, firstMonths }: PriceHistoryQuery) {
  return sql`SELECT ps.variant_uuid, extract(epoch FROM ps.month)::bigint AS month_start,
                ps.offsets::text AS offsets, ps.prices::text AS prices
         FROM unnest(${variantUuids}::uuid[], ${firstMonths}::date[]) AS r(variant_uuid, first_month)
         JOIN price_series ps ON ps.variant_uuid = r.variant_uuid AND ps.region = ${region} AND ps.month >= r.first_month
         ORDER BY ps.variant_uuid, ps.month`;
}

export function readPriceHistory(source: ReadSource, query: PriceHistoryQuery): Promise<PriceHistoryRow[]> {
  return runRead(source, ROW, priceHistoryStatement(query));
}
