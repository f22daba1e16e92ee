import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Price alerts (docs/alerts.md):
 *
 * - `alerts`: a key's watch on a card (`variant_uuid` null: its highest-priced raw variant, the
 *   price cards are sorted by, from `card_tops`) or on one variant, in one storage region, with its
 *   rule and whether the rule held at the last evaluation (`holds`): an alert fires when that
 *   turns true, so an import that leaves it true sends nothing.
 * - `alert_events`: the outbox. The evaluation inserts an event in the transaction that flips
 *   `holds`, so a firing is never lost nor made twice; a sender claims due events with
 *   `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`), so two instances never send the same
 *   event at once and one killed mid-send leaves it to be sent again once the lease has passed.
 * - `alert_attempts`: each attempt's outcome, the latest 50 per alert kept.
 *
 * No key foreign key: keys are the gateway's (revoked, never deleted); the catalogue's are
 * `ON DELETE CASCADE`, as a card that leaves the catalogue has no price left to watch.
 */
export class PriceAlerts1765400000000 implements MigrationInterface {
  name = 'PriceAlerts1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts (
        id              uuid PRIMARY KEY,
        key_id          uuid NOT NULL,
        card_uuid       uuid NOT NULL REFERENCES cards (uuid) ON DELETE CASCADE,
        variant_uuid    uuid REFERENCES variants (uuid) ON DELETE CASCADE,
        market          text NOT NULL,
        region          text NOT NULL,
        currency        char(3) NOT NULL,
        rule            text NOT NULL CHECK (rule IN ('price_above', 'price_below', 'change_24h', 'change_7d')),
        threshold       double precision NOT NULL,
        url             text NOT NULL,
        secret          text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        holds           boolean NOT NULL DEFAULT false,
        last_fired_at   timestamptz,
        disabled_at     timestamptz,
        disabled_reason text
      )`);
    await q.query(`CREATE INDEX alerts_key_idx ON alerts (key_id, created_at, id)`);
    await q.query(`CREATE INDEX alerts_card_idx ON alerts (card_uuid)`);
    await q.query(`CREATE INDEX alerts_variant_idx ON alerts (variant_uuid) WHERE variant_uuid IS NOT NULL`);
    await q.query(`
      CREATE TABLE alert_events (
        id            uuid PRIMARY KEY,
        alert_id      uuid NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
        payload       text NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        due_at        timestamptz NOT NULL DEFAULT now(),
        attempts      integer NOT NULL DEFAULT 0,
        claimed_until timestamptz,
        delivered_at  timestamptz,
        failed_at     timestamptz
      )`);
    await q.query(
      `CREATE INDEX alert_events_due_idx ON alert_events (due_at) WHERE delivered_at IS NULL AND failed_at IS NULL`,
    );
    await q.query(`CREATE INDEX alert_events_alert_idx ON alert_events (alert_id)`);
    await q.query(`
      CREATE TABLE alert_attempts (
        id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id    uuid NOT NULL REFERENCES alert_events (id) ON DELETE CASCADE,
        alert_id    uuid NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
        attempt     integer NOT NULL,
        at          timestamptz NOT NULL,
        status      integer,
        duration_ms integer NOT NULL,
        error       text
      )`);
    await q.query(`CREATE INDEX alert_attempts_alert_idx ON alert_attempts (alert_id, id DESC)`);
    await q.query(`CREATE INDEX alert_attempts_event_idx ON alert_attempts (event_id)`);
    // api-v1 keeps the alerts (its requests) and sends them (its background sender).
    await q.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON alerts, alert_events, alert_attempts TO tcg_reader`,
    );
    await q.query(`GRANT USAGE ON SEQUENCE alert_attempts_id_seq TO tcg_reader`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS alert_attempts`);
    await q.query(`DROP TABLE IF EXISTS alert_events`);
    await q.query(`DROP TABLE IF EXISTS alerts`);
  }
}
