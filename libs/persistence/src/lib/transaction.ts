import type { ClientBase, PoolClient } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Runs `work` in one transaction on a connection of its own: committed when it returns, rolled
 * back when it throws (all of it or none of it), the connection released either way.
 */
export async function inTransaction<T>(ds: DataSource, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const runner = ds.createQueryRunner();
  const client = (await runner.connect()) as PoolClient;
  try {
    return await inClientTransaction(client, work);
  } finally {
    await runner.release();
  }
}

/** Runs `work` in one transaction on a connection the caller holds: all of it or none of it. */
export async function inClientTransaction<C extends ClientBase, T>(
  client: C,
  work: (client: C) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `work` holding the session advisory lock `key` on a connection of its own; the lock ends
 * with the session, so a killed process releases it. `wait: false` returns undefined, without
 * running `work`, when another session holds the lock.
 */
export async function withSessionLock<T>(
  ds: DataSource,
  key: number,
  work: () => Promise<T>,
  opts: { wait: boolean } = { wait: true },
): Promise<{ value: T } | undefined> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    if (opts.wait) await runner.query('SELECT pg_advisory_lock($1)', [key]);
    else {
      const rows = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key])) as {
        locked: boolean;
      }[];
      if (!rows[0]!.locked) return undefined;
    }
    try {
      return { value: await work() };
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await runner.release();
  }
}
