import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { compile, db, type CompiledSql } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf, rowsOf, type Statement } from '../sql/run';

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

/** `tcg_quota_consume`'s reply: 1 or 0 (admitted), then each window's usage; bigints, as text. */
const CONSUMED = rowSchema('quota consume', { r: 'string[]' });
const RECONCILED = rowSchema('quota reconcile', { n: 'string' });
const USED = rowSchema('quota counter', { used: 'string' });

/** Checks and counts all of a key's windows in one statement (QuotaCounters migration). */
export function consumeQuotaStatement(
  keyId: string,
  windowIds: readonly string[],
  limits: readonly number[],
  expiries: readonly Date[],
  cost: number,
  now: Date,
) {
  return sql`SELECT tcg_quota_consume(${keyId}, ${windowIds}::text[], ${limits}::bigint[], ${expiries}::timestamptz[], ${cost}, ${now}) AS r`;
}

/**
 * Adds to the counters the batches (as parallel arrays) whose ids `quota_reconciliations` does
 * not hold yet, and records those ids; answers how many were new.
 */
export function reconcileQuotaStatement(
  ids: readonly string[],
  keyIds: readonly string[],
  windowIds: readonly string[],
  units: readonly number[],
  expiries: readonly Date[],
) {
  return sql`WITH batch AS (
         SELECT * FROM unnest(${ids}::text[], ${keyIds}::text[], ${windowIds}::text[], ${units}::bigint[], ${expiries}::timestamptz[])
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
       SELECT count(*) AS n FROM fresh, (SELECT count(*) FROM added) AS a`;
}

export function quotaUsedStatement(keyId: string, windowId: string) {
  return db
    .selectFrom('quota_counters')
    .select('used')
    .where('key_id', '=', keyId)
    .where('window_id', '=', windowId);
}

export function sweepQuotaCountersStatement(now: Date) {
  return db.deleteFrom('quota_counters').where('expires_at', '<=', now);
}

export function sweepQuotaReconciliationsStatement(now: Date) {
  return db.deleteFrom('quota_reconciliations').where('expires_at', '<=', now);
}

/**
 * `build`'s statement compiled once, here at load: the gateway sends one per request when it has
 * no Redis, and a statement whose arguments are all its parameters, in order, has the same text
 * for any of them. That is checked on `sample` (distinct values), so a builder that came to
 * repeat, reorder or inline an argument fails at load rather than send a wrong statement.
 */
function compiledOnce<P extends unknown[]>(
  build: (...params: P) => Statement,
  sample: P,
): (...params: P) => CompiledSql {
  const { sql: text, parameters } = compile(build(...sample));
  if (parameters.length !== sample.length || parameters.some((p, i) => p !== sample[i]))
    throw new Error(`${build.name}: its parameters are not its arguments in order`);
  return (...params) => ({ sql: text, parameters: params });
}

const AT = new Date(0);
const consumeQuota = compiledOnce(consumeQuotaStatement, ['key', ['w'], [1], [AT], 2, new Date(1)]);
const reconcileQuota = compiledOnce(reconcileQuotaStatement, [['b'], ['k'], ['w'], [1], [AT]]);
const quotaUsed = compiledOnce(quotaUsedStatement, ['key', 'window']);
const sweepQuotaCounters = compiledOnce(sweepQuotaCountersStatement, [AT]);
const sweepQuotaReconciliations = compiledOnce(sweepQuotaReconciliationsStatement, [AT]);

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
    const row = await rowOf(
      poolOf(this.ds),
      CONSUMED,
      consumeQuota(
        keyId,
        windows.map((w) => w.id),
        windows.map((w) => w.limit),
        windows.map((w) => w.expiresAt),
        cost,
        now,
      ),
    );
    const reply = row.r.map(Number);
    if (reply.length !== windows.length + 1 || !reply.every(Number.isSafeInteger))
      throw new Error(`unexpected quota reply: ${JSON.stringify(row)}`);
    return { admitted: reply[0] === 1, used: reply.slice(1) };
  }

  /** Adds the batches not added before; returns how many were new. */
  async reconcile(batches: readonly QuotaReconciliation[]): Promise<number> {
    if (batches.length === 0) return 0;
    const row = await rowOf(
      poolOf(this.ds),
      RECONCILED,
      reconcileQuota(
        batches.map((b) => b.id),
        batches.map((b) => b.keyId),
        batches.map((b) => b.windowId),
        batches.map((b) => b.units),
        batches.map((b) => b.expiresAt),
      ),
    );
    return Number(row.n);
  }

  /** The usage of one counter (0 when absent); for tests and diagnostics. */
  async used(keyId: string, windowId: string): Promise<number> {
    const rows = await rowsOf(poolOf(this.ds), USED, quotaUsed(keyId, windowId));
    return Number(rows[0]?.used ?? 0);
  }

  /** Drops every key's counters and reconciliation marks that expired before `now`. */
  async sweep(now: Date): Promise<void> {
    await execute(poolOf(this.ds), sweepQuotaCounters(now));
    await execute(poolOf(this.ds), sweepQuotaReconciliations(now));
  }
}
