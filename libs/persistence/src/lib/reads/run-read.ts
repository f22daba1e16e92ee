import { preparedQuery } from './prepared-query';
import type { ReadSource } from './read-replicas';
import type { CompiledSql } from '../sql/compile';
import { checkRows, type Columns, type RowOf, type RowSchema } from '../sql/row-schema';
import { compiled, type QueryRow, type Statement } from '../sql/run';

/**
 * Runs a statement as a named prepared statement (`preparedQuery`: replica routing, deadlines,
 * cancellation reports). Its rows are unchecked: a read checks them (`runRead`, `checkRows`).
 */
export function runStatement(source: ReadSource, statement: Statement | CompiledSql): Promise<QueryRow[]> {
  const { sql, parameters } = compiled(statement);
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
