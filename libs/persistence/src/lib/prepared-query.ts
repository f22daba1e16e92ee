import { createHash } from 'node:crypto';
import type { Pool, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Runs a read query as a named prepared statement on the data source's pool: PostgreSQL plans
 * it once per connection instead of on every request. The name is a digest of the text, so each
 * distinct query shape (a read path builds a bounded number of them) is prepared once per
 * connection. Measured at the full catalogue, planning a card lookup's first query took 1.6 ms
 * against 0.25 ms to run it. Outside transactions only: it takes any pooled connection.
 */
/** Statement names by text, so the digest is computed once per shape rather than per query. */
const names = new Map<string, string>();
const MAX_NAMES = 2000;

export async function preparedQuery<T extends QueryResultRow>(
  ds: DataSource,
  text: string,
  values: readonly unknown[],
): Promise<T[]> {
  const pool = (ds.driver as unknown as { master: Pool }).master;
  let name = names.get(text);
  if (name === undefined) {
    name = `q_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  const result = await pool.query<T>({ name, text, values: values as unknown[] });
  return result.rows;
}
