import { MigrationInterface, QueryRunner } from 'typeorm';

/** api-v1's own group role: tcg_reader's catalogue reads, and the alert tables no other app has. */
export const API_V1_ROLE = 'tcg_api_v1';

const ALERT_TABLES = 'alerts, alert_events, alert_attempts';

/**
 * The alert tables, whose rows hold the webhook signing secrets, leave tcg_reader (which api-v2
 * and the read replicas' URLs use) for `tcg_api_v1`, a group role that is itself a member of
 * tcg_reader: api-v1's login role goes in it (docs/deploying.md, "PostgreSQL roles"). Of the keys
 * it reads only the id, the plan and whether one is revoked: the senders skip a revoked key's
 * alerts and disable those past a downgraded plan's cap. The secrets themselves are sealed by
 * api-v1 as it starts (docs/alerts.md, "Secrets at rest"): that needs its key, which a migration
 * does not have.
 */
export class AlertsRole1765710000001 implements MigrationInterface {
  name = 'AlertsRole1765710000001';

  async up(q: QueryRunner): Promise<void> {
    // As in DatabaseRoles: roles are the cluster's, so one that exists (another database's
    // migration, or an operator's) is left as it is.
    await q.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${API_V1_ROLE}') THEN
          CREATE ROLE ${API_V1_ROLE} NOLOGIN;
        END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END $$`);
    await q.query(`
      DO $$ BEGIN
        IF NOT pg_has_role('${API_V1_ROLE}', 'tcg_reader', 'MEMBER') THEN
          GRANT tcg_reader TO ${API_V1_ROLE};
        END IF;
      END $$`);
    await q.query(`REVOKE ALL ON ${ALERT_TABLES} FROM tcg_reader`);
    await q.query(`REVOKE ALL ON SEQUENCE alert_attempts_id_seq FROM tcg_reader`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${ALERT_TABLES} TO ${API_V1_ROLE}`);
    await q.query(`GRANT USAGE ON SEQUENCE alert_attempts_id_seq TO ${API_V1_ROLE}`);
    await q.query(`GRANT SELECT (id, plan, revoked_at) ON api_keys TO ${API_V1_ROLE}`);
  }

  /** The grants go back to tcg_reader; the role stays (other databases of the cluster may use it). */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`REVOKE ALL ON ${ALERT_TABLES} FROM ${API_V1_ROLE}`);
    await q.query(`REVOKE ALL ON SEQUENCE alert_attempts_id_seq FROM ${API_V1_ROLE}`);
    await q.query(`REVOKE SELECT (id, plan, revoked_at) ON api_keys FROM ${API_V1_ROLE}`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${ALERT_TABLES} TO tcg_reader`);
    await q.query(`GRANT USAGE ON SEQUENCE alert_attempts_id_seq TO tcg_reader`);
  }
}
