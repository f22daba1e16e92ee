import { preparedQuery } from '../prepared-query';
import type { ReadSource } from '../read-replicas';
import { compile, type CompiledSql } from './compile';
import { checkRows, type Columns, type RowOf, type RowSchema } from './row-schema';

/** What `compile` takes: a query builder's statement or an `sql` fragment. */
export type Statement = Parameters<typeof compile>[0];

/**
 * Runs a read's statement as a named prepared statement (`preparedQuery`: replica routing,
 * deadlines, cancellation reports) and returns its rows checked against the read's schema.
 */
export async function runRead<S extends RowSchema<Columns>>(
  source: ReadSource,
  schema: S,
  statement: Statement | CompiledSql,
): Promise<RowOf<S>[]> {
  const { sql, parameters } = 'parameters' in statement ? statement : compile(statement);
  return checkRows(schema, await preparedQuery<Record<string, unknown>>(source, sql, parameters));
}
