import { type Alert, DELIVERY_ATTEMPTS_SHOWN } from '@tcg/domain';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { ClientBase } from 'pg';
import { db, shared } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { type Connection, execute, rowOf, rowsOf } from '../sql/run';
import { inClientTransaction } from '../db/transaction';
import { RULE_HOLDS, ruleOf, WATCHED, WATCHED_PRICE_JOINS } from './alert-rules.sql';

/** An alert whose rule has just become true, with what its event reports. */
export interface FiredAlert extends Pick<
  Alert,
  'cardId' | 'cardName' | 'variantId' | 'market' | 'currency' | 'rule' | 'threshold'
> {
  readonly alertId: string;
  /** Minor units. */
  readonly price: number | null;
  readonly change24h: number | null;
  readonly change7d: number | null;
}

export interface EvaluationResult {
  /** False: another instance was evaluating; nothing was done. */
  readonly ran: boolean;
  /** Enabled alerts looked at. */
  readonly evaluated: number;
  /** Of those, whose rule turned true (one event each) or false. */
  readonly fired: number;
  readonly cleared: number;
}

/**
 * Every enabled alert's rule on the current prices, against whether it held at the last
 * evaluation; `holds` takes the new value and, for each alert whose rule became true, an event is
 * queued with the body `payload` writes for it. One transaction: a kill at any point leaves either
 * the old state and no event, or the new state with its events.
 */
export async function evaluateAlerts(
  client: ClientBase,
  payload: (fired: FiredAlert) => string,
): Promise<EvaluationResult> {
  return inClientTransaction(client, () => evaluateAlertsInTransaction(client, payload));
}

/** `evaluateAlerts` inside the caller's open transaction (the benchmark rolls it back). */
export async function evaluateAlertsInTransaction(
  client: Connection,
  payload: (fired: FiredAlert) => string,
): Promise<EvaluationResult> {
  const { locked } = await rowOf(client, LOCK, evaluationLockStatement());
  if (!locked) return { ran: false, evaluated: 0, fired: 0, cleared: 0 };
  const rows = await rowsOf(client, EVALUATION, evaluationStatement());
  const fired = rows.filter((r) => r.kind === 'fired').map(toFired);
  if (fired.length > 0)
    await execute(
      client,
      insertEventsStatement(
        fired.map(() => randomUUID()),
        fired.map((f) => f.alertId),
        fired.map(payload),
      ),
    );
  return {
    ran: true,
    evaluated: rows.find((r) => r.kind === 'count')!.n,
    fired: fired.length,
    cleared: rows.filter((r) => r.kind === 'cleared').length,
  };
}

/**
 * One evaluation at a time across instances (a two-key advisory lock: class 'alerts', object 1).
 * Another instance's evaluation under way answers for this one: every instance hears every new
 * version, and the one evaluating runs again for a version that came meanwhile.
 */
export function evaluationLockStatement() {
  return sql`SELECT pg_try_advisory_xact_lock(hashtext('tcg_alerts'), 1) AS locked`;
}

const LOCK = rowSchema('alert evaluation lock', { locked: 'boolean' });

const EVALUATION = rowSchema('alert evaluation', {
  kind: 'string',
  n: 'int',
  alert_id: 'string?',
  card_id: 'string?',
  card_name: 'string?',
  variant_id: 'string?',
  market: 'string?',
  currency: 'string?',
  rule: 'string?',
  threshold: 'float?',
  price: 'string?',
  change_24h: 'float?',
  change_7d: 'float?',
});
type EvaluationRow = RowOf<typeof EVALUATION>;

/**
 * One statement: the rules on the watched prices, the alerts whose state changed updated, and
 * those changed returned (with a first row counting the alerts looked at).
 */
export function evaluationStatement() {
  return sql`WITH observed AS (
       SELECT a.id, a.holds AS was, ${RULE_HOLDS} AS holds,
              ${WATCHED.price} AS price, ${WATCHED.change24h} AS change_24h, ${WATCHED.change7d} AS change_7d
       FROM alerts a ${WATCHED_PRICE_JOINS}
       WHERE a.disabled_at IS NULL
     ), changed AS (
       UPDATE alerts a
       SET holds = o.holds, last_fired_at = CASE WHEN o.holds THEN now() ELSE a.last_fired_at END
       FROM observed o
       WHERE a.id = o.id AND a.holds <> o.holds
       RETURNING a.id, a.holds, a.card_uuid, a.variant_uuid, a.market, a.currency, a.rule, a.threshold
     )
     SELECT 'count' AS kind, (SELECT count(*) FROM observed)::int AS n, NULL::uuid AS alert_id,
            NULL AS card_id, NULL AS card_name, NULL AS variant_id, NULL AS market, NULL AS currency,
            NULL AS rule, NULL::float8 AS threshold, NULL::text AS price, NULL::float8 AS change_24h,
            NULL::float8 AS change_7d
     UNION ALL
     SELECT CASE WHEN ch.holds THEN 'fired' ELSE 'cleared' END, 0, ch.id, c.id, c.name, v.id, ch.market,
            ch.currency, ch.rule, ch.threshold, o.price::text, o.change_24h, o.change_7d
     FROM changed ch JOIN observed o ON o.id = ch.id
     JOIN cards c ON c.uuid = ch.card_uuid LEFT JOIN variants v ON v.uuid = ch.variant_uuid`;
}

/** Queues an event per fired alert: `ids`, `alertIds` and `payloads` side by side. */
export function insertEventsStatement(
  ids: readonly string[],
  alertIds: readonly string[],
  payloads: readonly string[],
) {
  return db
    .insertInto('alert_events')
    .columns(['id', 'alert_id', 'payload'])
    .expression(sql`SELECT * FROM unnest(${ids}::uuid[], ${alertIds}::uuid[], ${payloads}::text[])`);
}

function toFired(r: EvaluationRow): FiredAlert {
  return {
    alertId: r.alert_id!,
    cardId: r.card_id!,
    cardName: r.card_name!,
    variantId: r.variant_id,
    market: r.market!,
    currency: r.currency!,
    rule: ruleOf(r.rule!),
    threshold: r.threshold!,
    price: r.price === null ? null : Number(r.price),
    change24h: r.change_24h,
    change7d: r.change_7d,
  };
}

/** An event claimed for sending: the claimer alone sends it until `leaseMs` has passed. */
export interface ClaimedEvent {
  readonly id: string;
  readonly alertId: string;
  /** The key the alert belongs to. */
  readonly keyId: string;
  readonly payload: string;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  readonly createdAt: Date;
  readonly url: string;
  /** The URL's `host` (name or address, and a port other than the scheme's): what a breaker guards. */
  readonly destination: string;
  /** As stored: sealed (docs/alerts.md, "Secrets at rest"), or a plain one not yet sealed. */
  readonly secret: string;
}

/** How claims share the senders among keys and destinations. */
export interface ClaimOptions {
  /**
   * At most this many events of one key leased at once, across every sender (those already in
   * flight count): one key's slow receivers cannot take every sender's slots.
   */
  readonly perKey: number;
  /**
   * Lanes (`<key id> <destination>`, see `alertLane`) whose events are not claimed now: an open
   * breaker, a window's attempts spent. Per key, so that one key's silent receivers on a host never
   * hold back another key's events to that host.
   */
  readonly skipLanes?: readonly string[];
}

/**
 * Claims up to `limit` due events of enabled alerts whose key is not revoked, fairly: each key's
 * oldest due first, taken round-robin across keys (every key's first, then every key's second…),
 * none of a key past `perKey` in flight. Each is leased for `leaseMs` (`claimed_until`), committed
 * before anything is sent. Rows another claimer holds are skipped, not waited for; an event whose
 * claimer died is due again once its lease has passed.
 *
 * What it reads grows with the alerts that have events pending and the events in flight, not with
 * the backlog: the alerts are found one index step each (a skip scan of
 * `alert_events_pending_alert_idx`), and of each only its oldest due events, as many as its key may
 * still take; a key's oldest are among its alerts' oldest, so the places are those of every due
 * event ranked. One key's 50,000 due events used to make every claim read and sort them all.
 */
export async function claimDueEvents(
  client: Connection,
  limit: number,
  leaseMs: number,
  options: ClaimOptions = { perKey: limit },
): Promise<ClaimedEvent[]> {
  const rows = await rowsOf(client, CLAIMED, claimDueEventsStatement(limit, leaseMs, options));
  return rows.map((r) => ({
    id: r.id,
    alertId: r.alert_id,
    keyId: r.key_id,
    payload: r.payload,
    attempt: r.attempts,
    createdAt: r.created_at,
    url: r.url,
    destination: r.destination,
    secret: r.secret,
  }));
}

const CLAIMED = rowSchema('claimed alert events', {
  id: 'string',
  alert_id: 'string',
  key_id: 'string',
  payload: 'string',
  attempts: 'int',
  created_at: 'date',
  url: 'string',
  destination: 'string',
  secret: 'string',
});

/** The one statement of `claimDueEvents`. */
export function claimDueEventsStatement(limit: number, leaseMs: number, options: ClaimOptions) {
  const perKey = shared(options.perKey);
  return sql`WITH RECURSIVE pending AS (
       -- Ordered as the index is, so that the planner walks it rather than the one on alert_id
       -- alone (which holds the delivered history too).
       SELECT (SELECT e.alert_id FROM alert_events e
               WHERE e.delivered_at IS NULL AND e.failed_at IS NULL
               ORDER BY e.alert_id, e.due_at, e.id LIMIT 1) AS alert_id
       UNION ALL
       SELECT (SELECT e.alert_id FROM alert_events e
               WHERE e.alert_id > p.alert_id AND e.delivered_at IS NULL AND e.failed_at IS NULL
               ORDER BY e.alert_id, e.due_at, e.id LIMIT 1)
       FROM pending p WHERE p.alert_id IS NOT NULL
     ), busy AS (
       SELECT ba.key_id, count(*)::int AS n FROM alert_events b JOIN alerts ba ON ba.id = b.alert_id
       WHERE b.delivered_at IS NULL AND b.failed_at IS NULL AND b.claimed_until >= now()
       GROUP BY ba.key_id
     ), due AS (
       -- A key at its cap takes none (LIMIT 0 reads nothing).
       SELECT d.id, d.due_at, da.key_id, COALESCE(busy.n, 0) AS busy
       FROM pending p JOIN alerts da ON da.id = p.alert_id
       LEFT JOIN busy ON busy.key_id = da.key_id
       CROSS JOIN LATERAL (
         SELECT e.id, e.due_at FROM alert_events e
         WHERE e.alert_id = da.id AND e.delivered_at IS NULL AND e.failed_at IS NULL AND e.due_at <= now()
           AND (e.claimed_until IS NULL OR e.claimed_until < now())
         ORDER BY e.due_at, e.id LIMIT GREATEST(${perKey} - COALESCE(busy.n, 0), 0)
       ) d
       WHERE da.disabled_at IS NULL
         AND (da.key_id::text || ' ' || da.destination) <> ALL(${options.skipLanes ?? []}::text[])
         AND NOT EXISTS (SELECT FROM api_keys k WHERE k.id = da.key_id AND k.revoked_at IS NOT NULL)
     ), ranked AS (
       SELECT due.id, due.due_at,
              row_number() OVER (PARTITION BY due.key_id ORDER BY due.due_at, due.id) + due.busy AS place
       FROM due
     ), chosen AS (
       SELECT id FROM ranked WHERE place <= ${perKey} ORDER BY place, due_at LIMIT ${limit}
     ), locked AS (
       SELECT d.id FROM alert_events d
       WHERE d.id IN (SELECT id FROM chosen) AND d.delivered_at IS NULL AND d.failed_at IS NULL
         AND (d.claimed_until IS NULL OR d.claimed_until < now())
       FOR UPDATE SKIP LOCKED
     )
     UPDATE alert_events e
     SET claimed_until = now() + ${leaseMs} * interval '1 millisecond', attempts = e.attempts + 1
     FROM alerts a
     WHERE a.id = e.alert_id AND e.id IN (SELECT id FROM locked)
     RETURNING e.id, e.alert_id, a.key_id, e.payload, e.attempts, e.created_at, a.url, a.destination, a.secret`;
}

/**
 * Gives a claimed event back unsent (its destination was closed meanwhile): the lease ends, the
 * attempt is not counted, and it is due again at `dueAt`. False: it was no longer this claim's.
 */
export async function releaseClaim(client: Connection, event: ClaimedEvent, dueAt: Date): Promise<boolean> {
  return (await execute(client, releaseClaimStatement(event, dueAt))) > 0;
}

export function releaseClaimStatement(event: Pick<ClaimedEvent, 'id' | 'attempt'>, dueAt: Date) {
  return db
    .updateTable('alert_events')
    .set({ claimed_until: null, attempts: sql`attempts - 1`, due_at: sql`GREATEST(due_at, ${dueAt})` })
    .where('id', '=', event.id)
    .where('attempts', '=', event.attempt)
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null);
}

/** The breaker's unit: one key's events bound for one destination (a URL's host and port). */
export function alertLane(keyId: string, destination: string): string {
  return `${keyId} ${destination}`;
}

/**
 * Puts off every unsent event of `keyId` bound for `destination` that is not in flight until
 * `until` (a breaker opened on that lane): no attempt is counted, and they keep their place
 * otherwise. Other keys' events to the same destination are left alone. Returns how many.
 */
export async function deferDestination(
  client: Connection,
  keyId: string,
  destination: string,
  until: Date,
): Promise<number> {
  return execute(client, deferDestinationStatement(keyId, destination, until));
}

export function deferDestinationStatement(keyId: string, destination: string, until: Date) {
  const due = shared(until);
  return db
    .updateTable('alert_events as e')
    .set({ due_at: due })
    .from('alerts as a')
    .whereRef('a.id', '=', 'e.alert_id')
    .where('a.destination', '=', destination)
    .where('a.key_id', '=', keyId)
    .where('e.delivered_at', 'is', null)
    .where('e.failed_at', 'is', null)
    .where('e.due_at', '<', due)
    .where((eb) => eb.or([eb('e.claimed_until', 'is', null), eb('e.claimed_until', '<', sql<Date>`now()`)]));
}

/** When the next attempt of a failed one is due, or `give_up` (its alert is then disabled). */
export type AfterFailure = { readonly retryAt: Date } | { readonly giveUp: string };

export interface AttemptOutcome {
  readonly at: Date;
  readonly ok: boolean;
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: string | null;
}

/**
 * Records an attempt and what follows it, in one transaction: delivered; or due again at
 * `retryAt`; or failed for good, the alert disabled with the reason. The lease ends either way.
 * Only the alert's latest attempts are kept. False: the attempt was no longer this sender's (its
 * lease passed and another claimed the event, or the event was settled): nothing recorded.
 */
export async function recordAttempt(
  client: ClientBase,
  event: ClaimedEvent,
  outcome: AttemptOutcome,
  after: AfterFailure | undefined,
): Promise<boolean> {
  const retryAt = !outcome.ok && after && 'retryAt' in after ? after.retryAt : undefined;
  const failed = !outcome.ok && retryAt === undefined;
  return inClientTransaction(client, async () => {
    // Fenced by the attempt number: a sender whose lease passed and whose event was claimed again
    // (attempts moved on) or settled records nothing, so a late answer cannot undo a newer one.
    if ((await execute(client, settleEventStatement(event, outcome.ok, retryAt, failed))) === 0) return false;
    await execute(client, insertAttemptStatement(event, outcome));
    if (failed) {
      const reason = after && 'giveUp' in after ? after.giveUp : 'delivery failed';
      await execute(client, disableAlertStatement(event.alertId, reason));
      // Its other events are not sent either: they fail with it, rather than wait forever.
      await execute(client, failPendingEventsStatement(event.alertId));
    }
    await execute(client, trimAttemptsStatement(event.alertId));
    return true;
  });
}

/** Ends an attempt's lease: delivered, due again at `retryAt` if given, or failed. */
export function settleEventStatement(
  event: Pick<ClaimedEvent, 'id' | 'attempt'>,
  delivered: boolean,
  retryAt: Date | undefined,
  failed: boolean,
) {
  return db
    .updateTable('alert_events')
    .set({
      claimed_until: null,
      delivered_at: sql`CASE WHEN ${delivered} THEN now() END`,
      due_at: sql`COALESCE(${retryAt ?? null}::timestamptz, due_at)`,
      failed_at: sql`CASE WHEN ${failed} THEN now() END`,
    })
    .where('id', '=', event.id)
    .where('attempts', '=', event.attempt)
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null);
}

export function insertAttemptStatement(
  event: Pick<ClaimedEvent, 'id' | 'alertId' | 'attempt'>,
  outcome: AttemptOutcome,
) {
  return db.insertInto('alert_attempts').values({
    event_id: event.id,
    alert_id: event.alertId,
    attempt: event.attempt,
    at: outcome.at,
    status: outcome.status,
    duration_ms: Math.round(outcome.durationMs),
    error: outcome.error,
  });
}

export function disableAlertStatement(alertId: string, reason: string) {
  return db
    .updateTable('alerts')
    .set({ disabled_at: sql`now()`, disabled_reason: reason })
    .where('id', '=', alertId)
    .where('disabled_at', 'is', null);
}

export function failPendingEventsStatement(alertId: string) {
  return db
    .updateTable('alert_events')
    .set({ failed_at: sql`now()`, claimed_until: null })
    .where('alert_id', '=', alertId)
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null);
}

/** Deletes an alert's attempts but its latest DELIVERY_ATTEMPTS_SHOWN. */
export function trimAttemptsStatement(alertId: string) {
  const alert = shared(alertId);
  return db
    .deleteFrom('alert_attempts')
    .where('alert_id', '=', alert)
    .where('id', '<=', (eb) =>
      eb
        .selectFrom('alert_attempts')
        .select('id')
        .where('alert_id', '=', alert)
        .orderBy('id', 'desc')
        .offset(DELIVERY_ATTEMPTS_SHOWN)
        .limit(1),
    );
}

/** Days delivered and failed events are kept (their attempts go with them). */
const SETTLED_EVENTS_KEPT_DAYS = 30;

/** Deletes the events settled more than SETTLED_EVENTS_KEPT_DAYS ago; returns how many. */
export async function purgeSettledEvents(client: Connection): Promise<number> {
  return execute(client, purgeSettledEventsStatement());
}

export function purgeSettledEventsStatement() {
  const before = sql<Date>`now() - interval ${sql.lit(`${SETTLED_EVENTS_KEPT_DAYS} days`)}`;
  return db
    .deleteFrom('alert_events')
    .where((eb) => eb.or([eb('delivered_at', '<', before), eb('failed_at', '<', before)]));
}

/** How a reseal pass treats each stored secret (api-v1's SecretBox). */
export interface SecretResealer {
  /** Whether this stored value is already sealed with the current key. */
  isCurrent(stored: string): boolean;
  /** The value sealed with the current key; throws when it cannot be opened. */
  reseal(stored: string): string;
}

/**
 * Seals every alert secret not yet sealed with the current key (plain ones from before sealing,
 * or an old key's after a rotation), a batch at a time in id order. Each row is written only if
 * it still holds what was read (another instance's pass, or a new alert, may race this one).
 * Returns how many were resealed and how many could not be opened (a key no longer configured).
 */
export async function resealAlertSecrets(
  client: Connection,
  box: SecretResealer,
  batch = 500,
): Promise<{ resealed: number; unreadable: number }> {
  let after = '00000000-0000-0000-0000-000000000000';
  let resealed = 0;
  let unreadable = 0;
  for (;;) {
    const rows = await rowsOf(client, SECRETS, alertSecretsStatement(after, batch));
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const ids: string[] = [];
    const was: string[] = [];
    const now: string[] = [];
    for (const row of rows) {
      if (box.isCurrent(row.secret)) continue;
      try {
        now.push(box.reseal(row.secret));
        ids.push(row.id);
        was.push(row.secret);
      } catch {
        unreadable += 1;
      }
    }
    if (ids.length > 0) resealed += await execute(client, resealSecretsStatement(ids, was, now));
  }
  return { resealed, unreadable };
}

const SECRETS = rowSchema('alert secrets', { id: 'string', secret: 'string' });

/** Up to `batch` alerts' secrets, those of ids after `after`, in id order. */
export function alertSecretsStatement(after: string, batch: number) {
  return db.selectFrom('alerts').select(['id', 'secret']).where('id', '>', after).orderBy('id').limit(batch);
}

/** Writes each alert's new secret (`ids`, `was`, `now` side by side) where it still holds `was`. */
export function resealSecretsStatement(
  ids: readonly string[],
  was: readonly string[],
  now: readonly string[],
) {
  return sql`UPDATE alerts a SET secret = n.now
    FROM unnest(${ids}::uuid[], ${was}::text[], ${now}::text[]) AS n(id, was, now)
    WHERE a.id = n.id AND a.secret = n.was`;
}

/**
 * Disables the alerts their key no longer entitles, whatever changed the key (the key CLI, the
 * gateway, an operator's statement): every enabled alert of a revoked key (`key revoked`), and
 * of a key over its plan's cap (`caps`, alerts per plan; a plan not listed has the smallest), the
 * newest beyond it (`over the <plan> plan’s <n> alerts`): the oldest are kept, counted as
 * creation counts them, disabled ones included. Their unsent events fail with them.
 */
export async function disableUnentitledAlerts(
  client: Connection,
  caps: Readonly<Record<string, number>>,
): Promise<{ revoked: number; overCap: number }> {
  const rows = await rowsOf(client, DISABLED, disableUnentitledAlertsStatement(caps));
  const revoked = rows.filter((r) => r.revoked).length;
  return { revoked, overCap: rows.length - revoked };
}

const DISABLED = rowSchema('unentitled alerts disabled', { revoked: 'boolean' });

export function disableUnentitledAlertsStatement(caps: Readonly<Record<string, number>>) {
  const smallest = Math.min(...Object.values(caps));
  return sql`WITH ranked AS (
       SELECT a.id, a.disabled_at, k.plan, k.revoked_at,
              COALESCE((${JSON.stringify(caps)}::jsonb ->> k.plan)::int, ${smallest}) AS cap,
              row_number() OVER (PARTITION BY a.key_id ORDER BY a.created_at, a.id) AS n
       FROM alerts a JOIN api_keys k ON k.id = a.key_id
       WHERE a.key_id IN (SELECT key_id FROM alerts WHERE disabled_at IS NULL)
     ), disabled AS (
       UPDATE alerts u
       SET disabled_at = now(),
           disabled_reason = CASE WHEN r.revoked_at IS NOT NULL THEN 'key revoked'
                                  ELSE format('over the %s plan’s %s alerts', r.plan, r.cap) END
       FROM ranked r
       WHERE u.id = r.id AND u.disabled_at IS NULL AND (r.revoked_at IS NOT NULL OR r.n > r.cap)
       RETURNING u.id, r.revoked_at IS NOT NULL AS revoked
     ), failed AS (
       UPDATE alert_events e SET failed_at = now(), claimed_until = NULL
       WHERE e.alert_id IN (SELECT id FROM disabled) AND e.delivered_at IS NULL AND e.failed_at IS NULL
     )
     SELECT revoked FROM disabled`;
}
