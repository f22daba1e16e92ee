import type { GrowingPriceSeries } from '@tcg/domain';
import { SeriesStats } from '@tcg/pricing-stats';
import { HISTORY_DURATIONS, renderSeries, RenderedSeries } from '@tcg/rendering';
import type { PoolClient } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { copyInto, copyLine } from '../sql/copy';
import { cardBatches } from './card-batches';
import { logMigrationProgress } from './progress';
import { appendMonthText, monthKey, monthStartOf } from '../sql/month-chunks';
import { RENDERED_COLUMNS, renderedFields } from '../sql/rendered-columns';

/** Cards whose series are rendered per statement of the backfill (about 14 series each at full). */
const CARDS_PER_BATCH = 200;
/** The history the stored parts carry: v1's 30 days (`priceHistory30d`) cover v2's 7. */
const HISTORY_SECONDS = HISTORY_DURATIONS['30d'];

/**
 * Each series' JSON parts for default requests (see `RenderedSeries`), stored beside its
 * statistics so that a read joins text instead of building and serialising objects. Every write
 * of a series' statistics writes them in the same statement; this migration renders the series
 * already stored, in batches with progress lines, from their statistics and last 30 days.
 */
export class RenderedSeries1764690000000 implements MigrationInterface {
  name = 'RenderedSeries1764690000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variant_prices
      ADD COLUMN v1_stats text, ADD COLUMN v1_history text,
      ADD COLUMN v2_price text, ADD COLUMN v2_periods text, ADD COLUMN v2_history text`);
    const [{ n: total }] = (await q.query(`SELECT count(*)::int AS n FROM variant_prices`)) as {
      n: number;
    }[];
    const client = (await q.connect()) as PoolClient;
    await q.query(`CREATE TEMP TABLE rendered_backfill (
      variant_uuid uuid, region text, ${RENDERED_COLUMNS.map((c) => `${c} text`).join(', ')}) ON COMMIT DROP`);
    let done = 0;
    const started = Date.now();
    for await (const cards of cardBatches(q, CARDS_PER_BATCH)) {
      const rows = (await q.query(
        `SELECT vp.variant_uuid, vp.region, vp.currency, vp.stats::text AS stats,
                vp.updated_at::float8 AS updated_at
         FROM variants v JOIN variant_prices vp ON vp.variant_uuid = v.uuid
         WHERE v.card_uuid = ANY($1::uuid[])
         ORDER BY v.card_uuid, vp.variant_uuid, vp.region`,
        [cards],
      )) as { variant_uuid: string; region: string; currency: string; stats: string; updated_at: number }[];
      if (rows.length === 0) continue;
      const series = await recentSeries(q, rows);
      const rendered: RenderedSeries[] = rows.map((r) =>
        renderSeries(
          r.region,
          r.currency,
          JSON.parse(r.stats) as SeriesStats,
          series.get(key(r)) ?? NO_SERIES,
          // Every series was simulated or imported then; PriceSources1764900000000 sets each one's.
          'simulated',
        ),
      );
      // COPY into a scratch table, then one join update: far cheaper than a batch of array parameters.
      await copyInto(
        client,
        `rendered_backfill (variant_uuid, region, ${RENDERED_COLUMNS.join(', ')})`,
        rows.map((r, i) => copyLine([r.variant_uuid, r.region, ...renderedFields(rendered[i]!)])),
      );
      await q.query(
        `UPDATE variant_prices vp SET ${RENDERED_COLUMNS.map((c) => `${c} = r.${c}`).join(', ')}
         FROM rendered_backfill r WHERE vp.variant_uuid = r.variant_uuid AND vp.region = r.region`,
      );
      await q.query(`TRUNCATE rendered_backfill`);
      done += rows.length;
      logMigrationProgress('render stored series progress', done, total, started);
    }
    // Every write renders its series from now on: what a read may rely on.
    await q.query(`ALTER TABLE variant_prices
      ALTER COLUMN v2_price SET NOT NULL, ALTER COLUMN v2_periods SET NOT NULL, ALTER COLUMN v2_history SET NOT NULL,
      ADD CONSTRAINT variant_prices_v1_rendered
        CHECK ((region = 'NA') = (v1_stats IS NOT NULL) AND (region = 'NA') = (v1_history IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variant_prices
      DROP COLUMN v1_stats, DROP COLUMN v1_history, DROP COLUMN v2_price, DROP COLUMN v2_periods, DROP COLUMN v2_history`);
  }
}

const NO_SERIES = { t: [], p: [] };

function key(r: { variant_uuid: string; region: string }): string {
  return `${r.variant_uuid}|${r.region}`;
}

/** Each series' observations in its last 30 days (from the month holding their start), by series. */
async function recentSeries(
  q: QueryRunner,
  rows: readonly { variant_uuid: string; region: string; updated_at: number }[],
): Promise<Map<string, GrowingPriceSeries>> {
  const months = (await q.query(
    `SELECT ps.variant_uuid, ps.region, extract(epoch FROM ps.month)::bigint AS month_start,
            ps.offsets::text AS offsets, ps.prices::text AS prices
     FROM unnest($1::uuid[], $2::text[], $3::date[]) AS r(variant_uuid, region, first_month)
     JOIN price_series ps ON ps.variant_uuid = r.variant_uuid AND ps.region = r.region AND ps.month >= r.first_month
     ORDER BY ps.variant_uuid, ps.region, ps.month`,
    [
      rows.map((r) => r.variant_uuid),
      rows.map((r) => r.region),
      rows.map((r) => monthKey(monthStartOf(r.updated_at - HISTORY_SECONDS))),
    ],
  )) as { variant_uuid: string; region: string; month_start: string; offsets: string; prices: string }[];
  const out = new Map<string, GrowingPriceSeries>();
  for (const m of months) {
    const k = key(m);
    let s = out.get(k);
    if (!s) out.set(k, (s = { t: [], p: [] }));
    appendMonthText(s, Number(m.month_start), m.offsets, m.prices);
  }
  return out;
}
