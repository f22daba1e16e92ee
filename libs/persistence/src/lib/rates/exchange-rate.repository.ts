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
const RATE_ROW = rowSchema('exchange rates', { currency: 'string', day: 'string', rate: 'string' });

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

/** Every rate of a source, per currency, days ascending: what a reader keeps in memory. */
export function ratesOfSourceStatement(source: RateSource) {
  return db
    .selectFrom('exchange_rates')
    .select([
      'currency',
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
      sql<string>`rate::text`.as('rate'),
    ])
    .where('source', '=', source)
    .orderBy('currency')
    .orderBy('day');
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
    const byCurrency = new Map<string, { days: string[]; rates: string[] }>();
    for (const row of rows) {
      let entry = byCurrency.get(row.currency);
      if (!entry) byCurrency.set(row.currency, (entry = { days: [], rates: [] }));
      entry.days.push(row.day);
      entry.rates.push(row.rate);
    }
    return { source, byCurrency, count: rows.length };
  }
}
