import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../common/embedded-postgres';
import { freePort, prepareTestDatabase } from '@tcg/persistence/testing';

/**
 * Provides one PostgreSQL for the whole run: the given DATABASE_URL, else an embedded server in a
 * throw-away directory. Either way the tests get fresh databases, migrated once: a template in
 * TEST_DATABASE_URL and a clone of it per Jest worker (see workerDatabaseUrl). Redis is used only
 * when REDIS_URL is given.
 */
export default async function globalSetup(config: { maxWorkers: number }): Promise<void> {
  let adminUrl = process.env['DATABASE_URL'];
  if (!adminUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'tcg-test-pg-'));
    await chmod(dir, 0o755); // as root the server runs as the postgres user, which must reach it
    const server = await startEmbeddedPostgres({
      dataDir: join(dir, 'data'),
      port: await freePort(),
      persistent: false,
    });
    (globalThis as Record<string, unknown>)['__EMBEDDED_PG__'] = server;
    adminUrl = server.url('postgres');
    process.stdout.write(`\n[test] DATABASE_URL not set: embedded PostgreSQL on port ${server.port}\n`);
  }
  // One migrated template, then one clone per Jest worker: suites in one worker run one after
  // the other, so a suite may truncate its database without racing a suite in another worker.
  const template = `tcg_test_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  await prepareTestDatabase(url.toString());
  const workers = Number(config.maxWorkers) || 1;
  for (let w = 1; w <= workers; w++) {
    await admin.query(`DROP DATABASE IF EXISTS ${template}_w${w} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${template}_w${w} TEMPLATE ${template}`);
  }
  await admin.end();
  process.env['TEST_DATABASE_URL'] = url.toString();
  process.env['TEST_ADMIN_DATABASE_URL'] = adminUrl;
  process.env['TEST_DATABASE_WORKERS'] = String(workers);
  if (!process.env['REDIS_URL']) process.stdout.write('[test] REDIS_URL not set: Redis tests are skipped\n');
}
