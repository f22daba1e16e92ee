import { evaluateAlertsInTransaction } from '@tcg/persistence';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

/** Alerts the row evaluates. */
export const BENCH_ALERTS = 100_000;
/** Simulated imports, each followed by one evaluation measured. */
const IMPORTS = 5;
/** Of the NA prices, the share each simulated import moves. */
const MOVED = 0.1;

export interface AlertEvaluationResult {
  readonly alerts: number;
  /** Milliseconds of each evaluation after an import, in order. */
  readonly ms: readonly number[];
  readonly fired: readonly number[];
  readonly cleared: readonly number[];
}

/**
 * Evaluates BENCH_ALERTS alerts on the catalogue at `url` after each of IMPORTS simulated imports,
 * inside one transaction that is rolled back (the catalogue stays as it was): alerts on variants and
 * on cards, all four rules, thresholds around each price so that imports flip some; each import
 * moves a random tenth of the NA prices by ±15%, alternately up and down. Timed: the evaluation
 * statement and its events' insert, as api-v1 runs them after a data version.
 */
export async function measureAlertEvaluation(url: string): Promise<AlertEvaluationResult> {
  const client = new Client({ connectionString: url, application_name: 'bench alert-eval' });
  await client.connect();
  try {
    await client.query('BEGIN');
    const key = randomUUID();
    const { rowCount } = await client.query(
      `INSERT INTO alerts (id, key_id, card_uuid, variant_uuid, market, region, currency, rule, threshold, url, secret, holds)
       SELECT gen_random_uuid(), $1, w.card_uuid, CASE WHEN w.i % 3 = 0 THEN NULL ELSE w.variant_uuid END,
              'US', 'NA', 'USD', (ARRAY['price_above', 'price_below', 'change_24h', 'change_7d'])[w.i % 4 + 1],
              CASE WHEN w.i % 4 < 2 THEN round(w.price * (0.9 + random() * 0.2)) ELSE 5 + random() * 15 END,
              'https://hooks.example.com/bench', 'whsec_YmVuY2hiZW5jaGJlbmNoYmVuY2g=', false
       FROM (SELECT row_number() OVER () AS i, p.* FROM (
               SELECT v.card_uuid, v.uuid AS variant_uuid, vp.price
               FROM generate_series(1, ceil($2::float8 / (SELECT count(*) FROM variant_prices WHERE region = 'NA'))::int) g,
                    variant_prices vp JOIN variants v ON v.uuid = vp.variant_uuid
               WHERE vp.region = 'NA' LIMIT $2) p) w`,
      [key, BENCH_ALERTS],
    );
    // The state before the first import, as evaluations since the alerts' creation left it.
    await evaluateAlertsInTransaction(client, () => '{}');
    const ms: number[] = [];
    const fired: number[] = [];
    const cleared: number[] = [];
    for (let i = 0; i < IMPORTS; i++) {
      await client.query(
        `UPDATE variant_prices SET price = round(price * $1::float8)
         WHERE region = 'NA' AND random() < $2::float8`,
        [i % 2 === 0 ? 1.15 : 1 / 1.15, MOVED],
      );
      const started = process.hrtime.bigint();
      const result = await evaluateAlertsInTransaction(client, (f) => JSON.stringify(f));
      ms.push(Number(process.hrtime.bigint() - started) / 1e6);
      fired.push(result.fired);
      cleared.push(result.cleared);
    }
    return { alerts: rowCount ?? 0, ms, fired, cleared };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
}
