import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { inTransaction } from '../db/transaction';
import { db } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf, rowsOf, type Connection } from '../sql/run';
import type {
  DatedRate,
  ExchangeRateRepository,
  RateSource,
  RatesWritten,
  RateTable,
} from './exchange-rate.repository.port';

const COUNT = rowSchema('changed rates', { n: 'int' });
const RATE_ROW = rowSchema('exchange rates', { currency: 'string', days: 'int[]', rates: 'string[]' });
const STAMP_ROW = rowSchema('exchange rates stamp', { stamp: 'string?' });

/** Rates per statement: the full history file is about 200,000. */
const BATCH = 10_000;

/** The incoming rates as rows `k`. */
function incoming(rates: readonly DatedRate[]) {
  return sql`unnest(${rates.map((r) => r.day)}::date[], ${rates.map((r) => r.currency)}::text[], ${rates.map((r) => r.rate)}::numeric[]) AS k(day, currency, rate)`;
}

/** How many of these rates are new or differ (numerically) from the stored ones. */
export function countChangedRatesStatement(source: RateSource, rates: readonly DatedRate[]) {
  return sql`SELECT count(*)::int AS n FROM ${incoming(rates)}
       LEFT JOIN exchange_rates e ON e.source = ${source} AND e.currency = k.currency AND e.day = k.day
       WHERE e.rate IS DISTINCT FROM k.rate`;
}

/** Writes these rates where they are new or differ, naming the run that wrote them. */
export function upsertRatesStatement(source: RateSource, runId: string | null, rates: readonly DatedRate[]) {
  return sql`INSERT INTO exchange_rates AS e (source, currency, day, rate, run_id)
       SELECT ${source}, k.currency, k.day, k.rate, ${runId}::bigint FROM ${incoming(rates)}
       ON CONFLICT (source, currency, day) DO UPDATE
         SET rate = EXCLUDED.rate, run_id = EXCLUDED.run_id, written_at = now()
         WHERE e.rate IS DISTINCT FROM EXCLUDED.rate`;
}

/**
 * Every rate of a source, one row per currency with its days (since 1970-01-01) and rates in day
 * order: what a reader keeps in memory. Arrays rather than a row per rate: the full ECB history
 * is about 225,000 rates, and a row each cost seconds to read and build on a loaded machine.
 */
export function ratesOfSourceStatement(source: RateSource) {
  return db
    .selectFrom('exchange_rates')
    .select([
      'currency',
      sql<number[]>`array_agg(day - date '1970-01-01' ORDER BY day)`.as('days'),
      sql<string[]>`array_agg(rate::text ORDER BY day)`.as('rates'),
    ])
    .where('source', '=', source)
    .groupBy('currency')
    .orderBy('currency');
}

/**
 * What changes whenever rates are written: the newest run that wrote one (runs only grow, and a
 * write names its run). One step down the run index, so a reader can ask it at every data version
 * and read the rates again only when it moved.
 */
export function ratesStampStatement() {
  return db.selectFrom('exchange_rates').select(sql<string | null>`max(run_id)::text`.as('stamp'));
}

/** `exchange_rates` on PostgreSQL. */
export class PgExchangeRateRepository implements ExchangeRateRepository {
  constructor(private readonly ds: DataSource) {}

  private get pool(): Connection {
    return poolOf(this.ds);
  }

  async upsert(source: RateSource, runId: string | null, rates: readonly DatedRate[]): Promise<RatesWritten> {
    let written = 0;
    for (let i = 0; i < rates.length; i += BATCH) {
      const batch = rates.slice(i, i + BATCH);
      // Counted first: an INSERT that changes no row would still take a new data version.
      written += await inTransaction(this.ds, async (client) => {
        const { n } = await rowOf(client, COUNT, countChangedRatesStatement(source, batch));
        return n === 0 ? 0 : execute(client, upsertRatesStatement(source, runId, batch));
      });
    }
    return { written, unchanged: rates.length - written };
  }

  async table(source: RateSource): Promise<RateTable> {
    const rows = await rowsOf(this.pool, RATE_ROW, ratesOfSourceStatement(source));
    const byCurrency = new Map(rows.map((r) => [r.currency, { days: r.days, rates: r.rates }]));
    return { source, byCurrency, count: rows.reduce((n, r) => n + r.days.length, 0) };
  }

  async stamp(): Promise<string | null> {
    return (await rowOf(this.pool, STAMP_ROW, ratesStampStatement())).stamp;
  }
}
