import type { Alert, DeliveryAttempt, NewAlert } from '@tcg/domain';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { db } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { execute, rowOf, rowsOf } from '../sql/run';
import { inTransaction } from '../db/transaction';
import { RULE_HOLDS, ruleOf, WATCHED_PRICE_JOINS } from './alert-rules.sql';
import type { AlertRepository } from './alert.repository.port';

const ALERT = rowSchema('alert', {
  id: 'string',
  card_id: 'string',
  card_name: 'string',
  variant_id: 'string?',
  market: 'string',
  currency: 'string',
  rule: 'string',
  threshold: 'float',
  url: 'string',
  created_at: 'date',
  holds: 'boolean',
  last_fired_at: 'date?',
  disabled_at: 'date?',
  disabled_reason: 'string?',
});

const COUNT = rowSchema('alerts of a key', { n: 'int' });

const ATTEMPT = rowSchema('delivery attempts', {
  event_id: 'string',
  attempt: 'int',
  at: 'date',
  status: 'int?',
  duration_ms: 'int',
  error: 'string?',
});

/** Takes the key's transaction lock on its alerts: one creation of the key's at a time. */
export function lockKeyAlertsStatement(keyId: string) {
  return sql`SELECT pg_advisory_xact_lock(hashtext('alerts:' || ${keyId}))`;
}

export function countKeyAlertsStatement(keyId: string) {
  return db
    .selectFrom('alerts')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('key_id', '=', keyId);
}

export function insertAlertStatement(id: string, alert: NewAlert) {
  return db.insertInto('alerts').values({
    id,
    key_id: alert.keyId,
    card_uuid: alert.cardUuid,
    variant_uuid: alert.variantUuid,
    market: alert.market,
    region: alert.storageRegion,
    currency: alert.currency,
    rule: alert.rule,
    threshold: alert.threshold,
    url: alert.url,
    secret: alert.secret,
  });
}

/** Sets whether a new alert's rule holds on the current price. */
export function evaluateNewAlertStatement(id: string) {
  return sql`UPDATE alerts u SET holds = h.holds
    FROM (SELECT a.id, ${RULE_HOLDS} AS holds FROM alerts a ${WATCHED_PRICE_JOINS}
          WHERE a.id = ${id}) h
    WHERE u.id = h.id`;
}

function alertsOfKey(keyId: string) {
  return db
    .selectFrom('alerts as a')
    .innerJoin('cards as c', 'c.uuid', 'a.card_uuid')
    .leftJoin('variants as v', 'v.uuid', 'a.variant_uuid')
    .select([
      'a.id',
      'c.id as card_id',
      'c.name as card_name',
      'v.id as variant_id',
      'a.market',
      'a.currency',
      'a.rule',
      'a.threshold',
      'a.url',
      'a.created_at',
      'a.holds',
      'a.last_fired_at',
      'a.disabled_at',
      'a.disabled_reason',
    ])
    .where('a.key_id', '=', keyId);
}

/** A key's alerts, oldest first. */
export function listAlertsStatement(keyId: string) {
  return alertsOfKey(keyId).orderBy('a.created_at').orderBy('a.id');
}

export function getAlertStatement(keyId: string, id: string) {
  return alertsOfKey(keyId).where('a.id', '=', id);
}

export function deleteAlertStatement(keyId: string, id: string) {
  return db.deleteFrom('alerts').where('key_id', '=', keyId).where('id', '=', id);
}

/** An alert's latest `limit` delivery attempts, newest first. */
export function deliveryAttemptsStatement(alertId: string, limit: number) {
  return db
    .selectFrom('alert_attempts')
    .select(['event_id', 'attempt', 'at', 'status', 'duration_ms', 'error'])
    .where('alert_id', '=', alertId)
    .orderBy('id', 'desc')
    .limit(limit);
}

function toAlert(r: RowOf<typeof ALERT>): Alert {
  return {
    id: r.id,
    cardId: r.card_id,
    cardName: r.card_name,
    variantId: r.variant_id,
    market: r.market,
    currency: r.currency,
    rule: ruleOf(r.rule),
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
      await execute(client, lockKeyAlertsStatement(alert.keyId));
      const { n } = await rowOf(client, COUNT, countKeyAlertsStatement(alert.keyId));
      if (n >= cap) return false;
      await execute(client, insertAlertStatement(id, alert));
      await execute(client, evaluateNewAlertStatement(id));
      return true;
    });
    return created ? this.get(alert.keyId, id) : undefined;
  }

  async list(keyId: string): Promise<Alert[]> {
    const rows = await rowsOf(poolOf(this.ds), ALERT, listAlertsStatement(keyId));
    return rows.map(toAlert);
  }

  async get(keyId: string, id: string): Promise<Alert | undefined> {
    const [row] = await rowsOf(poolOf(this.ds), ALERT, getAlertStatement(keyId, id));
    return row && toAlert(row);
  }

  async delete(keyId: string, id: string): Promise<boolean> {
    return (await execute(poolOf(this.ds), deleteAlertStatement(keyId, id))) > 0;
  }

  async attempts(keyId: string, id: string, limit: number): Promise<DeliveryAttempt[] | undefined> {
    if (!(await this.get(keyId, id))) return undefined;
    const rows = await rowsOf(poolOf(this.ds), ATTEMPT, deliveryAttemptsStatement(id, limit));
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
