import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `alerts.destination`: the webhook URL's host (and a port other than the scheme's), computed by
 * PostgreSQL from the stored href (WHATWG-serialised: lower-case host, no credentials), so the
 * senders can leave aside a destination whose breaker is open and put off all its events in one
 * statement (docs/alerts.md, "Fair delivery").
 */
export class AlertDestinations1765710000000 implements MigrationInterface {
  name = 'AlertDestinations1765710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alerts ADD COLUMN destination text NOT NULL
        GENERATED ALWAYS AS (lower(substring(url FROM '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)'))) STORED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE alerts DROP COLUMN IF EXISTS destination`);
  }
}
