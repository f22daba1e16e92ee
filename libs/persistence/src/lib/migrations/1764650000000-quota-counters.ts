import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quota counters for a gateway without Redis, so day and month usage survive a restart.
 *
 * `tcg_quota_consume` checks and counts all of a key's windows in one statement: it creates the
 * missing counters, locks them in one fixed order (concurrent calls for a key queue instead of
 * deadlocking), and moves every counter by the cost or none. `quota_reconciliations` remembers
 * which batches of units counted elsewhere (in a gateway's memory while PostgreSQL was away) have
 * been added, so a batch retried after a lost reply is not added twice.
 */
export class QuotaCounters1764650000000 implements MigrationInterface {
  name = 'QuotaCounters1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE quota_counters (
        key_id     text        NOT NULL,
        window_id  text        NOT NULL,
        used       bigint      NOT NULL CHECK (used >= 0),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (key_id, window_id)
      )`);
    await q.query(`CREATE INDEX quota_counters_expires_idx ON quota_counters (expires_at)`);
    await q.query(`
      CREATE TABLE quota_reconciliations (
        id         text        PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE FUNCTION tcg_quota_consume(
        p_key text, p_windows text[], p_limits bigint[], p_expires timestamptz[], p_cost bigint,
        p_now timestamptz
      ) RETURNS bigint[] LANGUAGE plpgsql AS $$
      DECLARE
        v_used bigint[];
        v_admitted boolean;
      BEGIN
        -- A request's counting must not wait for a WAL flush: a PostgreSQL crash may lose the last
        -- fraction of a second of counts (never a restart of the gateway, nor of PostgreSQL).
        PERFORM set_config('synchronous_commit', 'off', true);
        -- Past windows of this key are never read again (by the caller's clock, as the ids are).
        DELETE FROM quota_counters WHERE key_id = p_key AND expires_at <= p_now;
        INSERT INTO quota_counters (key_id, window_id, used, expires_at)
        SELECT p_key, w, 0, e FROM unnest(p_windows, p_expires) AS t(w, e)
        ORDER BY w COLLATE "C"
        ON CONFLICT DO NOTHING;
        PERFORM 1 FROM quota_counters
        WHERE key_id = p_key AND window_id = ANY (p_windows)
        ORDER BY window_id COLLATE "C"
        FOR UPDATE;
        -- Read after the locks are held: a new statement sees what the previous holder committed.
        SELECT array_agg(c.used ORDER BY t.i) INTO v_used
        FROM unnest(p_windows) WITH ORDINALITY AS t(w, i)
        JOIN quota_counters c ON c.key_id = p_key AND c.window_id = t.w;
        SELECT bool_and(u + p_cost <= l) INTO v_admitted FROM unnest(v_used, p_limits) AS t(u, l);
        IF v_admitted AND p_cost > 0 THEN
          UPDATE quota_counters SET used = used + p_cost
          WHERE key_id = p_key AND window_id = ANY (p_windows);
          SELECT array_agg(u + p_cost ORDER BY i) INTO v_used
          FROM unnest(v_used) WITH ORDINALITY AS t(u, i);
        END IF;
        RETURN ARRAY[CASE WHEN v_admitted THEN 1 ELSE 0 END]::bigint[] || v_used;
      END
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION tcg_quota_consume(text, text[], bigint[], timestamptz[], bigint, timestamptz)`,
    );
    await q.query(`DROP TABLE quota_reconciliations`);
    await q.query(`DROP TABLE quota_counters`);
  }
}
