import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a claim of due alert events reads (Hardening III), both over the unsent events only, so
 * neither walks the delivered history:
 *
 * - `alert_events_pending_alert_idx` (alert_id, due_at, id): the alerts with events pending, one
 *   step each (a skip scan), and each alert's oldest due events in claim order. Without it a claim
 *   read every due event and sorted them all: 50,000 due events of one key made each claim read
 *   and sort (on disk) all 50,001, whoever's turn it was.
 * - `alert_events_claimed_idx` (claimed_until): the events in flight, counted per key against its
 *   cap, read from the few whose lease has not passed.
 *
 * `alert_events_due_idx` (due_at) goes: only the claim read it, and the planner, counting one
 * alert's many events as evenly spread, took it to find another alert's oldest, walking the first
 * alert's whole backlog in due order.
 *
 * A claim's lease now changes an indexed column, so its update is no longer a HOT one; the records
 * and deferrals already changed indexed columns (`due_at`, the partial indexes' predicate). Built in
 * the migration's transaction: the table holds 30 days of settled events at most.
 */
export class AlertClaimIndexes1765820000000 implements MigrationInterface {
  name = 'AlertClaimIndexes1765820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX alert_events_pending_alert_idx ON alert_events (alert_id, due_at, id)
       WHERE delivered_at IS NULL AND failed_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX alert_events_claimed_idx ON alert_events (claimed_until)
       WHERE delivered_at IS NULL AND failed_at IS NULL`,
    );
    await q.query(`DROP INDEX alert_events_due_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX IF NOT EXISTS alert_events_due_idx ON alert_events (due_at)
       WHERE delivered_at IS NULL AND failed_at IS NULL`,
    );
    await q.query(`DROP INDEX IF EXISTS alert_events_claimed_idx`);
    await q.query(`DROP INDEX IF EXISTS alert_events_pending_alert_idx`);
  }
}
