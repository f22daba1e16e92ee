import { sampleLoadState, withSampleLoadLock } from '@tcg/persistence';
import { Client, type ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../common/database';
import { log } from '../common/log';
import { type BenchCard, SEED } from './api-rows';
import { shuffled } from './sampling';
import { CatalogueSize } from '../loader/catalogue';
import { currentHour, loadSample, loadProgressReporter, removeIfInterrupted } from '../loader/sample-loader';

/**
 * Every card of the catalogue of `ds`, in the benches' fixed random order (SEED): for Zipf, the
 * first is the most popular; for a count, the same cards on every run.
 */
export async function benchCards(ds: DataSource): Promise<BenchCard[]> {
  return shuffled<BenchCard>(await ds.query('SELECT id, uuid, name FROM cards ORDER BY uuid'), SEED);
}

/** `url` with its database replaced by `database`. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** Runs `work` on a client connected to `connection` (a URL or a config), then disconnects it. */
export async function withClient<T>(
  connection: string | ClientConfig,
  work: (c: Client) => Promise<T>,
): Promise<T> {
  const client = new Client(typeof connection === 'string' ? { connectionString: connection } : connection);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const LOAD_TIME: Record<CatalogueSize, string> = { small: '~10 s', medium: '~35 s', full: '~7 min' };

/**
 * Makes `database`, on the server of `serverUrl`, hold a complete sample catalogue of `size`:
 * creates the database when missing, migrates it, and loads it (the loader's own code, with its
 * progress lines) unless a complete load is recorded. A complete load of another size is used as
 * it is, with a warning (the table names the size it measured). A load that was interrupted is
 * removed and run again; a running one (another process holds the sample-load lock) is waited
 * for. A database whose catalogue was not written by the loader is refused, never emptied.
 */
export async function ensureBenchCatalogue(
  serverUrl: string,
  database: string,
  size: CatalogueSize,
): Promise<{ url: string; size: string }> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database))
    throw new Error(`bench database names are lower-case identifiers (got '${database}')`);
  await withClient(
    { connectionString: databaseUrl(serverUrl, 'postgres'), connectionTimeoutMillis: 10_000 },
    async (admin) => {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (exists.rowCount === 0) {
        log('info', 'creating the bench database', { database });
        await admin.query(`CREATE DATABASE ${database}`);
      }
    },
  );
  const url = databaseUrl(serverUrl, database);
  const ds = await openDatabase(url, 2);
  try {
    const before = await sampleLoadState(ds);
    if (before.kind === 'complete') {
      if (before.size !== size)
        log('warn', 'the bench database holds another sample size: measuring it as it is', {
          database,
          found: before.size,
          expected: size,
        });
      return { url, size: before.size };
    }
    if (before.kind === 'interrupted')
      log(
        'info',
        'the bench catalogue is being loaded by another process or was interrupted: waiting for it',
        {
          database,
          size: before.size,
        },
      );
    return await withSampleLoadLock(ds, async () => {
      const state = await sampleLoadState(ds);
      if (state.kind === 'complete') return { url, size: state.size };
      if (state.kind === 'interrupted') {
        await removeIfInterrupted(ds, size, state);
      } else {
        const [{ n }]: { n: number }[] = await ds.query('SELECT count(*)::int AS n FROM cards');
        if (n > 0)
          throw new Error(
            `${database} holds a catalogue that no sample load wrote; name an empty or bench database instead`,
          );
      }
      log('info', 'loading the bench catalogue (first run only)', {
        database,
        size,
        expected: LOAD_TIME[size],
      });
      const report = await loadSample(ds, size, { asOf: currentHour(), onProgress: loadProgressReporter() });
      log('info', 'load done', { database, ...report });
      return { url, size };
    });
  } finally {
    await ds.destroy();
  }
}
