import { DataSource } from 'typeorm';
import { withSessionLock } from './transaction';
import { markSummariesStale } from './summaries';

/** What the database says about the sample catalogue load (see the DurableDataMarks migration). */
export type SampleLoadState =
  | { readonly kind: 'none' }
  | { readonly kind: 'complete'; readonly size: string }
  | { readonly kind: 'interrupted'; readonly size: string; readonly startedAt: Date };

/** Serialises sample loads and first-start checks across processes (advisory-lock key). */
const SAMPLE_LOAD_LOCK = 7_311;

export async function sampleLoadState(ds: DataSource): Promise<SampleLoadState> {
  const rows: { size: string; started_at: Date; completed_at: Date | null }[] = await ds.query(
    'SELECT size, started_at, completed_at FROM sample_loads',
  );
  const row = rows[0];
  if (!row) return { kind: 'none' };
  return row.completed_at
    ? { kind: 'complete', size: row.size }
    : { kind: 'interrupted', size: row.size, startedAt: row.started_at };
}

/** Committed before the load writes anything, so a load killed at any point is seen as interrupted. */
export async function recordSampleLoadStarted(ds: DataSource, size: string): Promise<void> {
  await ds.query(
    `INSERT INTO sample_loads (size) VALUES ($1)
     ON CONFLICT (only_row) DO UPDATE SET size = EXCLUDED.size, started_at = now(), completed_at = NULL`,
    [size],
  );
}

/** Committed only after the load's last batch and its summary refresh. */
export async function recordSampleLoadCompleted(ds: DataSource): Promise<void> {
  await ds.query('UPDATE sample_loads SET completed_at = now()');
}

/** Empties the catalogue and its prices (api keys and plans stay), marking the summaries stale. */
export async function removeCatalogue(ds: DataSource): Promise<void> {
  await ds.transaction(async (m) => {
    await m.query('TRUNCATE price_series, variant_prices, variants, cards, sets, games CASCADE');
    await markSummariesStale(m);
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
