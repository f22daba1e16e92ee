import { withDatabase } from '../common/database';
import { log, runTool } from '../common/log';

/**
 * Applies pending migrations to DATABASE_URL (or the embedded PostgreSQL) and exits: the step a
 * deployment runs before starting new service versions (`npm run migrate`; the compose file's
 * `migrate` job). The services never migrate at boot, so several instances never race to do it.
 */
async function main(): Promise<number> {
  return withDatabase(async (ds) => {
    const [row] = await ds.query('SELECT count(*)::int AS n FROM typeorm_migrations');
    log('info', 'schema up to date', { migrations: row.n });
    return 0;
  }, 1);
}

runTool('migration', main, 1);
