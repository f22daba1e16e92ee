import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { db } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { execute, rowsOf } from '../sql/run';
import { inTransaction, withSessionLock } from '../db/transaction';
import { markSummariesStale } from '../summaries';

/** What the database says about the sample catalogue load (see the DurableDataMarks migration). */
export type SampleLoadState =
  | { readonly kind: 'none' }
  | { readonly kind: 'complete'; readonly size: string }
  | { readonly kind: 'interrupted'; readonly size: string; readonly startedAt: Date };

/** Serialises sample loads and first-start checks across processes (advisory-lock key). */
const SAMPLE_LOAD_LOCK = 7_311;

const LOAD = rowSchema('sample load', { size: 'string', started_at: 'date', completed_at: 'date?' });

export function sampleLoadStatement() {
  return db.selectFrom('sample_loads').select(['size', 'started_at', 'completed_at']);
}

/** The load of `size` starts (again): its one row, incomplete. */
export function sampleLoadStartedStatement(size: string) {
  return db
    .insertInto('sample_loads')
    .values({ size })
    .onConflict((oc) =>
      oc.column('only_row').doUpdateSet({
        size: (eb) => eb.ref('excluded.size'),
        started_at: sql`now()`,
        completed_at: sql.lit(null),
      }),
    );
}

export function sampleLoadCompletedStatement() {
  return db.updateTable('sample_loads').set({ completed_at: sql`now()` });
}

export function truncateCatalogueStatement() {
  return sql`TRUNCATE price_series, variant_prices, variants, cards, sets, games CASCADE`;
}

export async function sampleLoadState(ds: DataSource): Promise<SampleLoadState> {
  const [row] = await rowsOf(poolOf(ds), LOAD, sampleLoadStatement());
  if (!row) return { kind: 'none' };
  return row.completed_at
    ? { kind: 'complete', size: row.size }
    : { kind: 'interrupted', size: row.size, startedAt: row.started_at };
}

/** Committed before the load writes anything, so a load killed at any point is seen as interrupted. */
export async function recordSampleLoadStarted(ds: DataSource, size: string): Promise<void> {
  await execute(poolOf(ds), sampleLoadStartedStatement(size));
}

/** Committed only after the load's last batch and its summary refresh. */
export async function recordSampleLoadCompleted(ds: DataSource): Promise<void> {
  await execute(poolOf(ds), sampleLoadCompletedStatement());
}

/** Empties the catalogue and its prices (api keys and plans stay), marking the summaries stale. */
export async function removeCatalogue(ds: DataSource): Promise<void> {
  await inTransaction(ds, async (client) => {
    await execute(client, truncateCatalogueStatement());
    await markSummariesStale(client);
  });
}

/**
 * Runs `work` holding the sample-load lock on a dedicated connection: a second `npm start` or
 * `npm run load` waits for the first instead of judging its half-written catalogue. The lock is a
 * session lock, so it also ends when this process dies.
 */
export async function withSampleLoadLock<T>(ds: DataSource, work: () => Promise<T>): Promise<T> {
  return (await withSessionLock(ds, SAMPLE_LOAD_LOCK, work))!.value;
}
