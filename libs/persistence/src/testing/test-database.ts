import { refreshSummaries } from '../lib/summaries';
import { createDataSource, migrate, type DatabaseDeadlines } from '../lib/db/data-source';
import { DataSource } from 'typeorm';
import { relayTo, TcpProxy } from './tcp-proxy';

/** Migrates the fresh test database once per run. */
export async function prepareTestDatabase(url: string): Promise<void> {
  const ds = await createDataSource({ url, poolSize: 1, applicationName: 'test-setup' }).initialize();
  try {
    await migrate(ds);
  } finally {
    await ds.destroy();
  }
}

/**
 * This Jest worker's own migrated database (a clone made in global-setup.ts): suites in one worker
 * run one after the other, so truncating it never races another suite.
 */
export function workerDatabaseUrl(): string {
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest.config.js');
  const worker = process.env['JEST_WORKER_ID'] ?? '1';
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname}_w${worker}`;
  return parsed.toString();
}

/**
 * A data source on this worker's test database, destroyed by the caller: a suite's own comes from
 * `useTestDatabase`, a step's from `withTestDatabase`; this is for a second pool beside them.
 */
export function testDataSource(): Promise<DataSource> {
  return createDataSource({ url: workerDatabaseUrl(), poolSize: 4, applicationName: 'test' }).initialize();
}

/**
 * Runs `work` on a data source on this worker's test database, closed after whatever happens: for a
 * step that seeds or reads the database around processes under test (`useTestDatabase` is for a
 * suite that holds it open).
 */
export async function withTestDatabase<T>(work: (ds: DataSource) => Promise<T>): Promise<T> {
  const ds = await testDataSource();
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}

/** Empties every catalogue, price and key table (plans stay: they come from a migration). */
export async function truncateAll(ds: DataSource): Promise<void> {
  await ds.query(
    'TRUNCATE price_series, variant_prices, variants, cards, sets, games, api_keys, bulk_snapshots, feed_runs CASCADE',
  );
  // The summaries would otherwise still describe the previous test's catalogue.
  await refreshSummaries(ds);
}

/**
 * The data-source hooks every integration suite needs: opens this worker's database before the
 * suite (handing it to `opened`), destroys it after, and empties it before each test (`truncate`:
 * `'each'`, the default), once before the suite (`'once'`) or never (`'never'`: a suite that
 * namespaces its rows, or empties what it wrote itself). Register it before the suite's own
 * `beforeAll` and `beforeEach`, which then find the database open and empty. A suite that must
 * still use the database after its tests (to delete its rows, drop its roles) does it in
 * `beforeClose`: Jest runs `afterAll` hooks in the order they were registered, so a suite's own
 * would find the database closed. A suite that undoes migrations sets `remigrate`: the database
 * then leaves with every migration applied, whatever happened.
 */
export function useTestDatabase(
  opened: (ds: DataSource) => void,
  {
    truncate = 'each',
    remigrate = false,
    beforeClose,
  }: {
    truncate?: 'each' | 'once' | 'never';
    remigrate?: boolean;
    beforeClose?: (ds: DataSource) => Promise<void>;
  } = {},
): void {
  let ds: DataSource | undefined;
  beforeAll(async () => {
    ds = await testDataSource();
    opened(ds);
    if (truncate === 'once') await truncateAll(ds);
  });
  afterAll(async () => {
    if (!ds) return;
    try {
      if (beforeClose) await beforeClose(ds);
      if (remigrate) await migrate(ds);
    } finally {
      await ds.destroy();
    }
  });
  if (truncate === 'each')
    beforeEach(async () => {
      await truncateAll(ds!);
    });
}

/**
 * For a suite about a database that stops answering: before it, a data source of one connection
 * to this worker's database through a relay the tests pause and cut, with `deadlines` (connecting
 * gets 5 s: through the relay on a loaded CI machine the suite must not fail before it starts),
 * handed to `opened`; after it, the relay resumed, the data source destroyed and the relay cut.
 */
export function useRelayedDataSource(
  deadlines: Omit<DatabaseDeadlines, 'connectMs'>,
  opened: (relayed: { relay: TcpProxy; ds: DataSource }) => void,
): void {
  let relay: TcpProxy | undefined;
  let ds: DataSource | undefined;
  beforeAll(async () => {
    const relayed = await relayTo(workerDatabaseUrl(), 5432);
    relay = relayed.proxy;
    ds = await createDataSource({
      url: relayed.url,
      poolSize: 1,
      applicationName: 'test',
      deadlines: { ...deadlines, connectMs: 5000 },
    }).initialize();
    opened({ relay, ds });
  });
  afterAll(async () => {
    relay?.resume();
    await ds?.destroy();
    await relay?.cut();
  });
}
