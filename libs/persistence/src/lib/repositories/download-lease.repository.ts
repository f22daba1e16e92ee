import { DataSource } from 'typeorm';

/** Prefix of a key's download leases among the quota counters: no counter's key id has it. */
const LEASE_KEY = 'downloads:';

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
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT set_config('synchronous_commit', 'off', true)`);
      await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
      const [row] = (await m.query(
        `WITH gone AS (DELETE FROM quota_counters WHERE key_id = $1 AND expires_at <= $2)
         SELECT count(*)::int AS n FROM quota_counters WHERE key_id = $1 AND expires_at > $2`,
        [key, now],
      )) as { n: number }[];
      if ((row?.n ?? 0) >= limit) return false;
      await m.query(
        `INSERT INTO quota_counters (key_id, window_id, used, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (key_id, window_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
        [key, leaseId, expiresAt],
      );
      return true;
    });
  }

  /** Moves a lease's expiry on (a lease already expired and swept stays gone). */
  async renew(keyId: string, leaseId: string, expiresAt: Date): Promise<void> {
    await this.ds.query('UPDATE quota_counters SET expires_at = $3 WHERE key_id = $1 AND window_id = $2', [
      LEASE_KEY + keyId,
      leaseId,
      expiresAt,
    ]);
  }

  async release(keyId: string, leaseId: string): Promise<void> {
    await this.ds.query('DELETE FROM quota_counters WHERE key_id = $1 AND window_id = $2', [
      LEASE_KEY + keyId,
      leaseId,
    ]);
  }
}
