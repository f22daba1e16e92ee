import type { Alert, AlertRepository, AlertRule, DeliveryAttempt, NewAlert } from '@tcg/domain';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inTransaction } from '../transaction';
import { RULE_HOLDS, WATCHED_PRICE_JOINS } from './alert-rules.sql';

interface AlertRow {
  id: string;
  card_id: string;
  card_name: string;
  variant_id: string | null;
  market: string;
  currency: string;
  rule: AlertRule;
  threshold: number;
  url: string;
  created_at: Date;
  holds: boolean;
  last_fired_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

const ALERT_SELECT = `
  SELECT a.id, c.id AS card_id, c.name AS card_name, v.id AS variant_id, a.market, a.currency, a.rule,
         a.threshold, a.url, a.created_at, a.holds, a.last_fired_at, a.disabled_at, a.disabled_reason
  FROM alerts a JOIN cards c ON c.uuid = a.card_uuid LEFT JOIN variants v ON v.uuid = a.variant_uuid`;

function toAlert(r: AlertRow): Alert {
  return {
    id: r.id,
    cardId: r.card_id,
    cardName: r.card_name,
    variantId: r.variant_id,
    market: r.market,
    currency: r.currency,
    rule: r.rule,
    threshold: r.threshold,
    url: r.url,
    createdAt: r.created_at,
    holds: r.holds,
    lastFiredAt: r.last_fired_at,
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
  };
}

/**
 * A key's alerts in PostgreSQL (PriceAlerts migration). Every statement names the key: another
 * key's alert is not found, as one that does not exist.
 */
export class TypeOrmAlertRepository implements AlertRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * Counts and inserts under the key's transaction lock, so two creations at once cannot both
   * take the last place; the rule is evaluated on the current price in the same transaction, so
   * an alert created while its rule holds fires only once it has stopped holding and holds again.
   */
  async create(alert: NewAlert, cap: number): Promise<Alert | undefined> {
    const id = randomUUID();
    const created = await inTransaction(this.ds, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('alerts:' || $1))`, [alert.keyId]);
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alerts WHERE key_id = $1',
        [alert.keyId],
      );
      if (rows[0]!.n >= cap) return false;
      await client.query(
        `INSERT INTO alerts (id, key_id, card_uuid, variant_uuid, market, region, currency, rule, threshold, url, secret)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          id,
          alert.keyId,
          alert.cardUuid,
          alert.variantUuid,
          alert.market,
          alert.storageRegion,
          alert.currency,
          alert.rule,
          alert.threshold,
          alert.url,
          alert.secret,
        ],
      );
      await client.query(
        `UPDATE alerts u SET holds = h.holds
         FROM (SELECT a.id, ${RULE_HOLDS} AS holds FROM alerts a ${WATCHED_PRICE_JOINS} WHERE a.id = $1) h
         WHERE u.id = h.id`,
        [id],
      );
      return true;
    });
    return created ? this.get(alert.keyId, id) : undefined;
  }

  async list(keyId: string): Promise<Alert[]> {
    const rows: AlertRow[] = await this.ds.query(
      `${ALERT_SELECT} WHERE a.key_id = $1 ORDER BY a.created_at, a.id`,
      [keyId],
    );
    return rows.map(toAlert);
  }

  async get(keyId: string, id: string): Promise<Alert | undefined> {
    const rows: AlertRow[] = await this.ds.query(`${ALERT_SELECT} WHERE a.key_id = $1 AND a.id = $2`, [
      keyId,
      id,
    ]);
    return rows[0] && toAlert(rows[0]);
  }

  async delete(keyId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      'DELETE FROM alerts WHERE key_id = $1 AND id = $2 RETURNING id',
      [keyId, id],
    );
    // typeorm answers a DELETE … RETURNING with [rows, count].
    const deleted = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return deleted.length > 0;
  }

  async attempts(keyId: string, id: string, limit: number): Promise<DeliveryAttempt[] | undefined> {
    if (!(await this.get(keyId, id))) return undefined;
    const rows: {
      event_id: string;
      attempt: number;
      at: Date;
      status: number | null;
      duration_ms: number;
      error: string | null;
    }[] = await this.ds.query(
      `SELECT event_id, attempt, at, status, duration_ms, error FROM alert_attempts
       WHERE alert_id = $1 ORDER BY id DESC LIMIT $2`,
      [id, limit],
    );
    return rows.map((r) => ({
      eventId: r.event_id,
      attempt: r.attempt,
      at: r.at,
      status: r.status,
      durationMs: r.duration_ms,
      error: r.error,
    }));
  }
}
