import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { db, shared } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf } from '../sql/run';
import { inTransaction } from '../db/transaction';

/** Prefix of a key's download leases among the quota counters: no counter's key id has it. */
const LEASE_KEY = 'downloads:';

const LIVE = rowSchema('live download leases', { n: 'int' });

/** Its commit does not wait for a WAL flush, as the quota counting's (QuotaCounters migration). */
export function leaseCommitAsyncStatement() {
  return sql`SELECT set_config('synchronous_commit', 'off', true)`;
}

/** Takes the key's transaction lock on its leases (`leaseKey`: the key's id among the counters). */
export function lockLeasesStatement(leaseKey: string) {
  return sql`SELECT pg_advisory_xact_lock(hashtextextended(${leaseKey}, 0))`;
}

/** Drops the key's expired leases and counts the live ones. */
export function liveLeasesStatement(leaseKey: string, now: Date) {
  const key = shared(leaseKey);
  const at = shared(now);
  return db
    .with('gone', (q) =>
      q.deleteFrom('quota_counters').where('key_id', '=', key).where('expires_at', '<=', at),
    )
    .selectFrom('quota_counters')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('key_id', '=', key)
    .where('expires_at', '>', at);
}

export function insertLeaseStatement(leaseKey: string, leaseId: string, expiresAt: Date) {
  return db
    .insertInto('quota_counters')
    .values({ key_id: leaseKey, window_id: leaseId, used: sql.lit(1), expires_at: expiresAt })
    .onConflict((oc) =>
      oc.columns(['key_id', 'window_id']).doUpdateSet({ expires_at: (eb) => eb.ref('excluded.expires_at') }),
    );
}

export function renewLeaseStatement(leaseKey: string, leaseId: string, expiresAt: Date) {
  return db
    .updateTable('quota_counters')
    .set({ expires_at: expiresAt })
    .where('key_id', '=', leaseKey)
    .where('window_id', '=', leaseId);
}

export function releaseLeaseStatement(leaseKey: string, leaseId: string) {
  return db.deleteFrom('quota_counters').where('key_id', '=', leaseKey).where('window_id', '=', leaseId);
}

/**
 * A key's downloads in progress across gateway instances, for a gateway without Redis: each lease
 * is one row of `quota_counters` (key `downloads:<key id>`, window the lease's id, used 1) that
 * expires unless renewed, so an instance that died gives its places back, and the gateway's sweep
 * of expired counters removes them. A take runs in a transaction holding the key's advisory lock,
 * so under any concurrency a key never holds more than its limit.
 */
export class DownloadLeaseRepository {
  constructor(private readonly ds: DataSource) {}

  /** Takes one of the key's `limit` places until `expiresAt`; false when live leases hold them all. */
  take(keyId: string, leaseId: string, limit: number, expiresAt: Date, now: Date): Promise<boolean> {
    const key = LEASE_KEY + keyId;
    return inTransaction(this.ds, async (client) => {
      await execute(client, leaseCommitAsyncStatement());
      await execute(client, lockLeasesStatement(key));
      const { n } = await rowOf(client, LIVE, liveLeasesStatement(key, now));
      if (n >= limit) return false;
      await execute(client, insertLeaseStatement(key, leaseId, expiresAt));
      return true;
    });
  }

  /** Moves a lease's expiry on (a lease already expired and swept stays gone). */
  async renew(keyId: string, leaseId: string, expiresAt: Date): Promise<void> {
    await execute(poolOf(this.ds), renewLeaseStatement(LEASE_KEY + keyId, leaseId, expiresAt));
  }

  async release(keyId: string, leaseId: string): Promise<void> {
    await execute(poolOf(this.ds), releaseLeaseStatement(LEASE_KEY + keyId, leaseId));
  }
}
