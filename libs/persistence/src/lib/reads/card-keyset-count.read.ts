import { sql } from 'kysely';
import type { PoolClient } from 'pg';
import { readOn, type ReadSource } from './read-replicas';
import { facetCount, regionParam } from './card-fragments';
import { keysetPlan, type ResolvedKeysetQuery } from './card-keyset-plan';
import { and, compile } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { rowsOf } from '../sql/run';

const ROW = rowSchema('card keyset count', { n: 'int' });

/** SQLSTATE of a statement cancelled by its timeout. */
const QUERY_CANCELED = '57014';

/**
 * How many cards a query matches: by game and/or set alone from card_facet_counts (a few rows per
 * set); otherwise the rows of its plan.
 */
export function keysetCountStatement(query: ResolvedKeysetQuery) {
  const quick =
    query.minPrice === undefined
      ? facetCount(query.browse, query.filter, regionParam(query.region).sql)
      : undefined;
  if (quick) return quick;
  const plan = keysetPlan(query);
  return sql`SELECT count(*)::int AS n ${plan.from} WHERE ${and(plan.where)}`;
}

/**
 * The count, or null when counting takes longer than `budgetMs` (docs/spec/decisions.md: `total`
 * is null past the budget). The count runs in its own transaction under a statement timeout, so a
 * slow count is cancelled by the server rather than abandoned.
 */
export function readKeysetCount(
  source: ReadSource,
  query: ResolvedKeysetQuery,
  budgetMs: number,
): Promise<number | null> {
  const statement = compile(keysetCountStatement(query));
  return readOn(source, async (ds) => {
    const runner = ds.createQueryRunner();
    let client: PoolClient | undefined;
    try {
      client = (await runner.connect()) as PoolClient;
      // Opening the transaction and setting its deadline is one round trip: a query without
      // parameters goes as a simple query, which may hold several statements.
      await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.ceil(budgetMs)}`);
      const [row] = await rowsOf(client, ROW, statement);
      await client.query('COMMIT');
      return row!.n;
    } catch (error) {
      // Outside a transaction (BEGIN itself failed) ROLLBACK only warns.
      await client?.query('ROLLBACK').catch(() => undefined);
      if ((error as { code?: unknown }).code === QUERY_CANCELED) return null;
      throw error;
    } finally {
      await runner.release();
    }
  });
}
