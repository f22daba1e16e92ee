import { compile, type CompiledSql } from './compile';
import { checkRow, checkRows, type Columns, type RowOf, type RowSchema } from './row-schema';

/** What `compile` takes: a query builder's statement or an `sql` fragment. */
export type Statement = Parameters<typeof compile>[0];

/** A row as the driver returns it: `rowsOf` checks it against a schema. */
export type QueryRow = Readonly<Record<string, unknown>>;

/**
 * A connection a statement runs on as it is: a pool (`poolOf`), or a transaction's client the
 * caller holds (`inTransaction`). node-postgres' `Pool`, `PoolClient` and `Client` are ones.
 */
export interface Connection {
  query(config: { text: string; values: unknown[] }): Promise<{ rows: QueryRow[]; rowCount: number | null }>;
}

export function compiled(statement: Statement | CompiledSql): CompiledSql {
  return 'parameters' in statement ? statement : compile(statement);
}

/**
 * Runs a statement on `connection` (unnamed: a write or a once-a-run statement gains nothing from
 * a prepared plan) and returns how many rows it wrote, or returned.
 */
export async function execute(connection: Connection, statement: Statement | CompiledSql): Promise<number> {
  const { sql, parameters } = compiled(statement);
  const result = await connection.query({ text: sql, values: [...parameters] });
  return result.rowCount ?? 0;
}

/** Runs a statement on `connection` and returns its rows checked against `schema`. */
export async function rowsOf<S extends RowSchema<Columns>>(
  connection: Connection,
  schema: S,
  statement: Statement | CompiledSql,
): Promise<RowOf<S>[]> {
  const { sql, parameters } = compiled(statement);
  const result = await connection.query({ text: sql, values: [...parameters] });
  return checkRows(schema, result.rows);
}

/**
 * The one row a statement returns (an aggregate, a `RETURNING` of one row, a lock's answer),
 * checked against `schema`; it throws when the statement returns none or several.
 */
export async function rowOf<S extends RowSchema<Columns>>(
  connection: Connection,
  schema: S,
  statement: Statement | CompiledSql,
): Promise<RowOf<S>> {
  const { sql, parameters } = compiled(statement);
  const { rows } = await connection.query({ text: sql, values: [...parameters] });
  if (rows.length !== 1) throw new Error(`${schema.read}: expected one row, got ${rows.length}`);
  return checkRow(schema, rows[0]!);
}
