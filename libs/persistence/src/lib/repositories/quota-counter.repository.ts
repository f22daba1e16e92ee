import { DataSource } from 'typeorm';

/** One window of a consume call: its id (stable within the window), its limit and its end. */
export interface QuotaCounterWindow {
  readonly id: string;
  readonly limit: number;
  readonly expiresAt: Date;
}

/** One batch of units counted elsewhere, to be added to a counter once. */
export interface QuotaReconciliation {
  /** Unique per batch: the same id applied twice adds the units once. */
  readonly id: string;
  readonly keyId: string;
  readonly windowId: string;
  readonly units: number;
  readonly expiresAt: Date;
}

/**
 * Quota counters in PostgreSQL (migration QuotaCounters1764650000000): the gateway's persistent
 * store when it has no Redis. Each call is one statement, so it is atomic without a client-side
 * transaction and costs one round trip.
 */
export class QuotaCounterRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * Adds `cost` to every window of the key if none would go over its limit, else changes nothing.
   * Returns whether it did, and each window's usage (after the call), in the order given.
   */
  async consume(
    keyId: string,
    cost: number,
    windows: readonly QuotaCounterWindow[],
    now: Date,
  ): Promise<{ admitted: boolean; used: number[] }> {
    const rows: { r: string[] }[] = await this.ds.query(
      'SELECT tcg_quota_consume($1, $2::text[], $3::bigint[], $4::timestamptz[], $5, $6) AS r',
      [
        keyId,
        windows.map((w) => w.id),
        windows.map((w) => w.limit),
        windows.map((w) => w.expiresAt),
        cost,
        now,
      ],
    );
    const reply = rows[0]?.r.map(Number);
    if (!reply || reply.length !== windows.length + 1 || !reply.every(Number.isSafeInteger))
      throw new Error(`unexpected quota reply: ${JSON.stringify(rows)}`);
    return { admitted: reply[0] === 1, used: reply.slice(1) };
  }

  /** Adds the batches not added before; returns how many were new. */
  async reconcile(batches: readonly QuotaReconciliation[]): Promise<number> {
    if (batches.length === 0) return 0;
    const rows: { n: string }[] = await this.ds.query(
      `WITH batch AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::timestamptz[])
           AS b(id, key_id, window_id, units, expires_at)
       ), fresh AS (
         INSERT INTO quota_reconciliations (id, expires_at)
         SELECT id, expires_at FROM batch
         ON CONFLICT DO NOTHING
         RETURNING id
       ), added AS (
         INSERT INTO quota_counters AS c (key_id, window_id, used, expires_at)
         SELECT b.key_id, b.window_id, sum(b.units), max(b.expires_at)
         FROM batch b JOIN fresh f ON f.id = b.id
         GROUP BY b.key_id, b.window_id
         ON CONFLICT (key_id, window_id) DO UPDATE SET used = c.used + EXCLUDED.used
         RETURNING 1
       )
       SELECT count(*) AS n FROM fresh, (SELECT count(*) FROM added) AS a`,
      [
        batches.map((b) => b.id),
        batches.map((b) => b.keyId),
        batches.map((b) => b.windowId),
        batches.map((b) => b.units),
        batches.map((b) => b.expiresAt),
      ],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The usage of one counter (0 when absent); for tests and diagnostics. */
  async used(keyId: string, windowId: string): Promise<number> {
    const rows: { used: string }[] = await this.ds.query(
      'SELECT used FROM quota_counters WHERE key_id = $1 AND window_id = $2',
      [keyId, windowId],
    );
    return Number(rows[0]?.used ?? 0);
  }

  /** Drops every key's counters and reconciliation marks that expired before `now`. */
  async sweep(now: Date): Promise<void> {
    await this.ds.query('DELETE FROM quota_counters WHERE expires_at <= $1', [now]);
    await this.ds.query('DELETE FROM quota_reconciliations WHERE expires_at <= $1', [now]);
  }
}
