import { openDatabase, resolveDatabase } from '../common/database';
import { log } from '../common/log';

/**
 * Applies pending migrations to DATABASE_URL (or the embedded PostgreSQL) and exits: the step a
 * deployment runs before starting new service versions (`npm run migrate`; the compose file's
 * `migrate` job). The services never migrate at boot, so several instances never race to do it.
 */
async function main(): Promise<void> {
  const db = await resolveDatabase();
  const ds = await openDatabase(db.url, 1);
  try {
    log('info', 'schema up to date', {
      migrations: (await ds.query('SELECT count(*)::int AS n FROM typeorm_migrations'))[0].n,
    });
  } finally {
    await ds.destroy();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  log('error', 'migration failed', { error: (error as Error).message });
  process.exit(1);
});
