import { sql } from 'kysely';
import type { ClientBase, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf } from '../sql/run';

/** The answer of `tryAdvisoryLockStatement`. */
export const TRIED_LOCK = rowSchema('advisory lock', { locked: 'boolean' });

/** Waits for the session advisory lock `key`. */
export function advisoryLockStatement(key: number) {
  return sql`SELECT pg_advisory_lock(${key})`;
}

/** Takes the session advisory lock `key` if no other session holds it: `locked` says whether. */
export function tryAdvisoryLockStatement(key: number) {
  return sql`SELECT pg_try_advisory_lock(${key}) AS locked`;
}

export function advisoryUnlockStatement(key: number) {
  return sql`SELECT pg_advisory_unlock(${key})`;
}

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
  const client = (await runner.connect()) as PoolClient;
  try {
    if (opts.wait) await execute(client, advisoryLockStatement(key));
    else if (!(await rowOf(client, TRIED_LOCK, tryAdvisoryLockStatement(key))).locked) return undefined;
    try {
      return { value: await work() };
    } finally {
      await execute(client, advisoryUnlockStatement(key));
    }
  } finally {
    await runner.release();
  }
}
