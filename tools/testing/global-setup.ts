import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../common/embedded-postgres';
import { freePort } from '../common/ports';
import { prepareTestDatabase } from '@tcg/persistence/testing';

/**
 * Provides one PostgreSQL for the whole run: the given DATABASE_URL, else an embedded server in a
 * throw-away directory. Either way the tests get a fresh database, migrated once, in
 * TEST_DATABASE_URL. Redis is used only when REDIS_URL is given.
 */
export default async function globalSetup(): Promise<void> {
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
  const dbName = `tcg_test_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  process.env['TEST_DATABASE_URL'] = url.toString();
  process.env['TEST_ADMIN_DATABASE_URL'] = adminUrl;
  await prepareTestDatabase(url.toString());
  if (!process.env['REDIS_URL']) process.stdout.write('[test] REDIS_URL not set: Redis tests are skipped\n');
}
