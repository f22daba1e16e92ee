import type { KeysetPage, KeysetPosition } from '@tcg/domain';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import type { KeyColumn, KeysetPlan } from './card-keyset-plan';
import { and, joined, type Sql } from '../sql/compile';
import { rowSchema, type RowSchema } from '../sql/row-schema';
import { runRead } from './run-read';

/** A card UUID and its key in the order, each column as text (`k0`, `k1`…), per number of columns. */
type KeyRowSchema = RowSchema<Readonly<Record<string, 'string'>>>;
const keyRows = new Map<number, KeyRowSchema>();
function rowOf(keys: number): KeyRowSchema {
  let schema = keyRows.get(keys);
  if (!schema) {
    const columns: Record<string, 'string'> = { uuid: 'string' };
    for (let i = 0; i < keys; i++) columns[`k${i}`] = 'string';
    keyRows.set(keys, (schema = rowSchema('card keyset page', columns)));
  }
  return schema;
}

export interface KeysetPageQuery {
  readonly plan: KeysetPlan;
  readonly limit: number;
  /** Where the page starts: after a key (before it, reading backward); none, the first page. */
  readonly position?: KeysetPosition;
}

/**
 * A page of `limit` cards and one more (whether more follow) from the position, in the order (the
 * reverse, reading backward), each with its key as text. Never OFFSET: a page costs the same deep
 * in a walk as at its start.
 */
export function keysetPageStatement({ plan, limit, position }: KeysetPageQuery) {
  const backward = position?.backward ?? false;
  const where = [...plan.where];
  if (position) {
    if (position.key.length !== plan.columns.length)
      throw new RangeError('cursor key does not fit the order');
    where.push(keysetCondition(plan.columns, position.key, backward));
  }
  const orderBy = joined(
    plan.columns.map((c) => sql`${c.expr} ${sql.raw((c.dir === 'asc') !== backward ? 'ASC' : 'DESC')}`),
  );
  const keys = joined(plan.columns.map((c, i) => sql`(${c.expr})::text AS ${sql.raw(`k${i}`)}`));
  return sql`SELECT ${plan.uuid} AS uuid, ${keys} ${plan.from} WHERE ${and(where)} ORDER BY ${orderBy} LIMIT ${limit + 1}`;
}

/** Rows strictly after `key` in the order (before it, reading backward). */
function keysetCondition(columns: readonly KeyColumn[], key: readonly string[], backward: boolean): Sql {
  const values = columns.map((c, i) => sql`${key[i]}::${sql.raw(c.type)}`);
  const ascending = (c: KeyColumn) => (c.dir === 'asc') !== backward;
  if (columns.every((c) => ascending(c) === ascending(columns[0]!))) {
    // One direction throughout: a row comparison, which an index on the columns can serve.
    const op = sql.raw(ascending(columns[0]!) ? '>' : '<');
    return sql`(${joined(columns.map((c) => c.expr))}) ${op} (${joined(values)})`;
  }
  const alternatives = columns.map((c, i) => {
    const equal = columns.slice(0, i).map((e, j) => sql`${e.expr} = ${values[j]}`);
    return sql`(${and([...equal, sql`${c.expr} ${sql.raw(ascending(c) ? '>' : '<')} ${values[i]}`])})`;
  });
  return sql`(${joined(alternatives, sql` OR `)})`;
}

export async function readKeysetPage(source: ReadSource, query: KeysetPageQuery): Promise<KeysetPage> {
  const { plan, limit, position } = query;
  const rows = await runRead(source, rowOf(plan.columns.length), keysetPageStatement(query));
  const kept = rows.slice(0, limit).map((r) => ({
    cardUuid: r['uuid']!,
    key: plan.columns.map((_, i) => r[`k${i}`]!),
  }));
  return { rows: position?.backward ? kept.reverse() : kept, more: rows.length > limit };
}
