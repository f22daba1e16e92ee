import { Client } from 'pg';
import { workerDatabaseUrl } from './test-database';

/**
 * A plain `pg` client on this worker's test database, for a suite that runs SQL of its own beside
 * its repositories (to look at rows, or hold a lock as another session): connected before the
 * suite (handed to `opened`), ended after it. Register it after `useTestDatabase`.
 */
export function useTestClient(opened: (client: Client) => void): void {
  let client: Client | undefined;
  beforeAll(async () => {
    client = new Client({ connectionString: workerDatabaseUrl() });
    await client.connect();
    opened(client);
  });
  afterAll(async () => {
    await client?.end();
  });
}
