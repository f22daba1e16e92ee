import { Client } from 'pg';
import type { EmbeddedServer } from '../common/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env['TEST_ADMIN_DATABASE_URL'];
  const testUrl = process.env['TEST_DATABASE_URL'];
  if (adminUrl && testUrl) {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    const template = new URL(testUrl).pathname.slice(1);
    const workers = Number(process.env['TEST_DATABASE_WORKERS'] ?? 0);
    for (let w = 1; w <= workers; w++)
      await admin.query(`DROP DATABASE IF EXISTS ${template}_w${w} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  }
  const server = (globalThis as Record<string, unknown>)['__EMBEDDED_PG__'] as EmbeddedServer | undefined;
  await server?.stop();
}
