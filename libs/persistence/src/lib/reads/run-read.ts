import { preparedQuery, type QueryRow } from '../prepared-query';
import type { ReadSource } from '../read-replicas';
import { compile, type CompiledSql } from './compile';
import { checkRows, type Columns, type RowOf, type RowSchema } from './row-schema';

/** What `compile` takes: a query builder's statement or an `sql` fragment. */
export type Statement = Parameters<typeof compile>[0];

export type { QueryRow };

/**
 * Runs a statement as a named prepared statement (`preparedQuery`: replica routing, deadlines,
 * cancellation reports). Its rows are unchecked: a read checks them (`runRead`, `checkRows`).
 */
export function runStatement(source: ReadSource, statement: Statement | CompiledSql): Promise<QueryRow[]> {
  const { sql, parameters } = 'parameters' in statement ? statement : compile(statement);
  return preparedQuery(source, sql, parameters);
}

/** Runs a read's statement and returns its rows checked against the read's schema. */
export async function runRead<S extends RowSchema<Columns>>(
  source: ReadSource,
  schema: S,
  statement: Statement | CompiledSql,
): Promise<RowOf<S>[]> {
  return checkRows(schema, await runStatement(source, statement));
}
