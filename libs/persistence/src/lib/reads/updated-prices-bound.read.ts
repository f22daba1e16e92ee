import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { shared } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('updated prices bound', { over: 'boolean' });

export interface UpdatedPricesBound {
  readonly region: string;
  /** Unix seconds, exclusive. */
  readonly updatedAfter: number;
  readonly cap: number;
}

/**
 * Whether more than `cap` prices in the region changed after `updatedAfter`: an index-only read of
 * at most `cap + 1` entries.
 */
export function updatedPricesBoundStatement({ region, updatedAfter, cap }: UpdatedPricesBound) {
  const max = shared(cap);
  return sql`SELECT count(*) > ${max} AS over
  FROM (SELECT 1 FROM variant_prices WHERE region = ${region} AND updated_at > ${updatedAfter} LIMIT ${max} + 1) r`;
}

export async function readUpdatedPricesOver(source: ReadSource, bound: UpdatedPricesBound): Promise<boolean> {
  const [row] = await runRead(source, ROW, updatedPricesBoundStatement(bound));
  return row!.over;
}
