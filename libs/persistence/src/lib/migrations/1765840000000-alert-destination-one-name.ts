import { MigrationInterface, QueryRunner } from 'typeorm';

/** The URL's host and port, lower-cased, without the trailing dots of a fully-qualified name. */
const DESTINATION = `regexp_replace(
  lower(substring(url FROM '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)')),
  '\\.+(:[0-9]*)?$', '\\1')`;

/**
 * `alerts.destination` without a host's trailing dots: `hooks.example.com.` is the name
 * `hooks.example.com` (fully qualified), one host, so one breaker and one lane. Before, a
 * subscriber could add a lane per spelling of the same host (`.`, `..`) and with it another
 * share of the senders against a host already held back. PostgreSQL cannot change a generated
 * column's expression: the column is made again.
 */
export class AlertDestinationOneName1765840000000 implements MigrationInterface {
  name = 'AlertDestinationOneName1765840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts DROP COLUMN destination`);
    await q.query(
      `ALTER TABLE alerts ADD COLUMN destination text NOT NULL GENERATED ALWAYS AS (${DESTINATION}) STORED`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts DROP COLUMN destination`);
    await q.query(`
      ALTER TABLE alerts ADD COLUMN destination text NOT NULL
        GENERATED ALWAYS AS (lower(substring(url FROM '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)'))) STORED`);
  }
}
