import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
  type QueryExecutorProvider,
  type RawBuilder,
  type RootOperationNode,
  type QueryId,
  type ValueNode,
} from 'kysely';
import type { Database } from './database';

/** A fragment of a statement: SQL text with its bound values, composed with Kysely's `sql` tag. */
export type Sql = RawBuilder<unknown>;

/** A statement as it goes to the server: its text and its values in placeholder order. */
export interface CompiledSql {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * Numbers each bound value once per statement, as Kysely does, except that a value interpolated
 * several times as the same fragment (`shared`) keeps its first placeholder: the region or a
 * search text that a statement tests in several places is one parameter, with one type, as the
 * hand-written statements had it.
 */
class SharedParameterCompiler extends PostgresQueryCompiler {
  private placeholders = new Map<ValueNode, string>();

  override compileQuery(node: RootOperationNode, queryId: QueryId): CompiledQuery {
    this.placeholders = new Map();
    return super.compileQuery(node, queryId);
  }

  protected override visitValue(node: ValueNode): void {
    const placeholder = this.placeholders.get(node);
    if (placeholder !== undefined) return this.append(placeholder);
    super.visitValue(node);
    if (!node.immediate) this.placeholders.set(node, this.getCurrentParameterPlaceholder());
  }
}

/**
 * A "cold" Kysely: it builds and compiles PostgreSQL statements and never connects; statements
 * run through `preparedQuery` (named prepared statements, replica routing, deadlines).
 */
export const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new SharedParameterCompiler(),
  },
});

/**
 * A value bound once however many times the fragment is interpolated into one statement (see
 * `SharedParameterCompiler`); a plain interpolated value is a parameter of its own each time.
 */
export function shared<V>(value: V): RawBuilder<V> {
  return sql.val(value);
}

/** `parts` joined by `separator` (Kysely's `sql.join`, typed to take fragments only). */
export function joined(parts: readonly Sql[], separator: Sql = sql`, `): Sql {
  return sql.join(parts, separator);
}

/** `parts` joined by AND. */
export function and(parts: readonly Sql[]): Sql {
  return sql.join(parts, sql` AND `);
}

/**
 * `column` is one of the first `positions` elements of `array`, read by position. Its estimate does
 * not depend on the array's values, so PostgreSQL keeps a statement's generic plan, where with
 * `= ANY(array)` it plans every execution anew for them. Positions past the array's end are NULL
 * and match nothing (in a condition that is never negated).
 */
export function inByPosition(column: Sql, array: Sql, positions: number): Sql {
  return sql`${column} IN (SELECT (${array})[p.i] FROM generate_series(1, ${sql.lit(positions)}) AS p(i))`;
}

/** A query builder's statement or an `sql` fragment, compiled for PostgreSQL. */
export function compile(query: { compile(provider: QueryExecutorProvider): CompiledQuery }): CompiledSql {
  const { sql: text, parameters } = query.compile(db);
  return { sql: text, parameters };
}
