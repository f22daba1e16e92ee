import { createDataSource, migrate } from '@tcg/persistence';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startEmbeddedPostgres } from './embedded-postgres';
import { log } from './log';

/** The workspace root (the folder holding nx.json), from source or from dist/. */
export const REPO_ROOT = ((): string => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();
export const DATA_DIR = join(REPO_ROOT, '.data');
export const EMBEDDED_DATABASE = 'tcg';

export interface ResolvedDatabase {
  readonly url: string;
  readonly embedded: boolean;
  /** Stops the embedded server if this process started it. */
  stop(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/**
 * DATABASE_URL when given; otherwise the embedded PostgreSQL under `.data/postgres` — reused if
 * `npm start` already runs it, started (and initialised on first use) otherwise.
 */
export async function resolveDatabase(env: NodeJS.ProcessEnv = process.env): Promise<ResolvedDatabase> {
  const given = env['DATABASE_URL'];
  if (given) return { url: given, embedded: false, stop: async () => undefined };
  const port = Number(env['EMBEDDED_PG_PORT'] ?? 54329);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
  if (await portOpen(port)) return { url, embedded: true, stop: async () => undefined };
  log('info', 'DATABASE_URL not set: starting embedded PostgreSQL', {
    dataDir: join(DATA_DIR, 'postgres'),
    port,
  });
  const server = await startEmbeddedPostgres({
    dataDir: join(DATA_DIR, 'postgres'),
    port,
    persistent: true,
    log: (msg, fields) => log('warn', msg, fields),
  });
  const admin = new Client({ connectionString: server.url('postgres') });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  await admin.end();
  return { url, embedded: true, stop: () => server.stop() };
}

/** A migrated data source for a tool. */
export async function openDatabase(url: string, poolSize = 4): Promise<DataSource> {
  const ds = await createDataSource({ url, poolSize, applicationName: 'tcg-tools' }).initialize();
  const applied = await migrate(ds);
  if (applied.length > 0) log('info', 'migrations applied', { migrations: applied });
  return ds;
}

/**
 * Runs `work` on a migrated data source over DATABASE_URL (or the embedded PostgreSQL), then
 * closes it and stops an embedded server this process started, whatever happens.
 */
export async function withDatabase<T>(work: (ds: DataSource) => Promise<T>, poolSize = 4): Promise<T> {
  const db = await resolveDatabase();
  const ds = await openDatabase(db.url, poolSize);
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
    await db.stop();
  }
}
