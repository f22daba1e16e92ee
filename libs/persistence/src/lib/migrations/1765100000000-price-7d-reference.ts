import type { GrowingPriceSeries } from '@tcg/domain';
import { computeSeriesStats } from '@tcg/pricing-stats';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { appendMonthText } from '../sql/month-chunks';
import { createSetAndGameSummaries } from './1764000000000-catalogue-summaries';
import {
  createCardValues,
  dropSummaries,
  OneCardSummary1764500000000,
} from './1764500000000-one-card-summary';

/** Series whose reference is recomputed from their observations per statement (see `up`). */
const SERIES_PER_BATCH = 500;

/**
 * `variant_prices.price_7d_ref`: the price each series' 7-day change is measured from, minor units,
 * as the statistics engine states it (`SeriesStats['7d'].reference`, libs/pricing-stats); null for
 * a one-point series, which has no reference. The writer stores it with the other statistics, in
 * the same statement.
 *
 * The market index 7 days back (`game_summaries.value_7d_ago_cents`) was the sum over the game's
 * cards of each top variant's price reversed through its stored change, `price / (1 + change_7d /
 * 100)`: a second derivation of the engine's rule, in SQL, as a float. It is now the sum of the
 * stored references, a bigint, with no price arithmetic: a card whose series has no reference yet
 * (one observation) counts at its current price, so that it does not move the index, as before.
 * card_values carries the reference; the set and game summaries built on it are created again with
 * it (set_summaries unchanged), and granted as the DatabaseRoles migration grants them.
 *
 * Backfill of the series stored before: the one place the change is reversed. It is exact: the
 * stored change is `(price - ref) / ref * 100` in float8, so `round(price / (1 + change_7d / 100))`
 * gives `ref` back for any price below 2^40 or so (relative error ~1e-15); a null change with more
 * than one observation means a reference of 0. Only a current price of 0 (change -100) says
 * nothing of the reference: those few series get it from their observations, through the engine.
 * A stored `stats` JSON carries `reference` from its series' next write on; nothing reads it there.
 */
export class Price7dReference1765100000000 implements MigrationInterface {
  name = 'Price7dReference1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variant_prices ADD COLUMN price_7d_ref bigint`);
    await q.query(`
      UPDATE variant_prices SET price_7d_ref = CASE
        WHEN change_7d > -100 THEN round(price / (1 + change_7d / 100))::bigint
        WHEN change_7d IS NULL AND (stats ->> 'count')::int > 1 THEN 0
      END`);
    for (;;) {
      const rows = (await q.query(
        `SELECT variant_uuid, region FROM variant_prices
         WHERE change_7d <= -100 AND price_7d_ref IS NULL
         ORDER BY variant_uuid, region LIMIT ${SERIES_PER_BATCH}`,
      )) as { variant_uuid: string; region: string }[];
      if (rows.length === 0) break;
      const series = await storedSeries(q, rows);
      const refs = rows.map((r) => {
        const s = series.get(`${r.variant_uuid}|${r.region}`);
        const reference = s ? computeSeriesStats(s.t, s.p)['7d'].reference : null;
        // Never null here (the change was not): a guard, so that the loop always ends.
        if (reference === null) throw new Error(`series ${r.variant_uuid} ${r.region} has no 7d reference`);
        return reference;
      });
      await q.query(
        `UPDATE variant_prices vp SET price_7d_ref = k.ref
         FROM unnest($1::uuid[], $2::text[], $3::bigint[]) AS k(variant_uuid, region, ref)
         WHERE vp.variant_uuid = k.variant_uuid AND vp.region = k.region`,
        [rows.map((r) => r.variant_uuid), rows.map((r) => r.region), refs],
      );
    }

    await dropSummaries(q);
    await createCardValues(q, 'vp.price, vp.price_7d_ref');
    await createSetAndGameSummaries(q, {
      column: 'cv.value_7d_ago_cents::bigint',
      sum: 'sum(coalesce(price_7d_ref, price))',
    });
    await grantAndAnalyze(q);
  }

  async down(q: QueryRunner): Promise<void> {
    // The summaries as OneCardSummary1764500000000 defined them (it drops the current ones first).
    await new OneCardSummary1764500000000().up(q);
    await grantAndAnalyze(q);
    await q.query(`ALTER TABLE variant_prices DROP COLUMN price_7d_ref`);
  }
}

/** What DatabaseRoles1764760000000 granted on the views, which a drop took with them. */
async function grantAndAnalyze(q: QueryRunner): Promise<void> {
  await q.query(`GRANT SELECT ON card_values, set_summaries, game_summaries TO tcg_reader, tcg_importer`);
  for (const view of ['card_values', 'set_summaries', 'game_summaries']) await q.query(`ANALYZE ${view}`);
}

/** The whole stored series of each given variant and region, by `variant|region`. */
async function storedSeries(
  q: QueryRunner,
  rows: readonly { variant_uuid: string; region: string }[],
): Promise<Map<string, GrowingPriceSeries>> {
  const months = (await q.query(
    `SELECT ps.variant_uuid, ps.region, extract(epoch FROM ps.month)::bigint AS month_start,
            ps.offsets::text AS offsets, ps.prices::text AS prices
     FROM unnest($1::uuid[], $2::text[]) AS k(variant_uuid, region)
     JOIN price_series ps ON ps.variant_uuid = k.variant_uuid AND ps.region = k.region
     ORDER BY ps.variant_uuid, ps.region, ps.month`,
    [rows.map((r) => r.variant_uuid), rows.map((r) => r.region)],
  )) as { variant_uuid: string; region: string; month_start: string; offsets: string; prices: string }[];
  const out = new Map<string, GrowingPriceSeries>();
  for (const m of months) {
    const key = `${m.variant_uuid}|${m.region}`;
    let s = out.get(key);
    if (!s) out.set(key, (s = { t: [], p: [] }));
    appendMonthText(s, Number(m.month_start), m.offsets, m.prices);
  }
  return out;
}
