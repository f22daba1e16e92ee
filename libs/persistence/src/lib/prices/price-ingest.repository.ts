import { isUuid, PRICE_SOURCES, PriceSource } from '@tcg/domain';
import { sql } from 'kysely';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { copyBinaryInto } from '../sql/binary-copy';
import { copyInto } from '../sql/copy';
import { poolOf } from '../db/data-source';
import { db } from '../sql/compile';
import type { Database } from '../sql/database';
import { rowSchema } from '../sql/row-schema';
import { execute, rowsOf } from '../sql/run';
import { markSummariesStale } from '../summaries';
import { inTransaction } from '../db/transaction';
import { refreshDocumentsOfVariants } from '../documents';
import { MonthChunk, normaliseSeries } from '../sql/month-chunks';
import { RENDERED_COLUMNS } from '../sql/rendered-columns';
import { encodeBatch, type IngestSeries } from './series-encoding';

/** An observation resolved to a variant: Unix seconds and integer minor units of the region's currency. */
export interface IngestObservation {
  readonly variantUuid: string;
  readonly region: string;
  readonly t: number;
  readonly price: number;
}

export type { IngestSeries } from './series-encoding';

export interface IngestResult {
  readonly observations: number;
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Variant-region series whose statistics were refreshed. */
  readonly seriesRefreshed: number;
  /** Stored simulated series that this batch replaced with real ones (their observations are gone). */
  readonly seriesReplaced: number;
  /** Incoming series not written: the stored series holds another real source's observations. */
  readonly refused: readonly { variantUuid: string; region: string; storedSource: PriceSource }[];
}

/**
 * Writes price observations and refreshes the statistics of every series they touch, one batch
 * per transaction: either the whole batch lands or none of it, together with the mark that makes
 * the next `refreshSummaries` pick it up. The importer and the sample-data
 * loader both come through here, so a simulated feed and a real one take the same path.
 */
export class PriceIngestRepository {
  constructor(private readonly ds: DataSource) {}

  get dataSource(): DataSource {
    return this.ds;
  }

  /** Maps vendor SKU ids to variant UUIDs; unknown SKUs are absent from the result. */
  async resolveVendorSkus(skus: readonly string[]): Promise<Map<string, string>> {
    if (skus.length === 0) return new Map();
    const rows = await rowsOf(poolOf(this.ds), SKU_ROW, vendorSkusStatement(skus));
    return new Map(rows.map((r) => [r.vendor_sku_id, r.uuid]));
  }

  /** Maps variant references (UUID or slug) to variant UUIDs; unknown references are absent. */
  async resolveVariantRefs(refs: readonly string[]): Promise<Map<string, string>> {
    if (refs.length === 0) return new Map();
    const unique = [...new Set(refs)];
    const uuids = unique.filter(isUuid).map((u) => u.toLowerCase());
    const rows = await rowsOf(poolOf(this.ds), REF_ROW, variantRefsStatement(uuids, unique));
    const known = new Map<string, string>();
    for (const r of rows) {
      known.set(r.uuid, r.uuid);
      known.set(r.id, r.uuid);
    }
    const out = new Map<string, string>();
    for (const ref of unique) {
      const uuid = known.get(ref) ?? known.get(ref.toLowerCase());
      if (uuid) out.set(ref, uuid);
    }
    return out;
  }

  /**
   * Observations of one source in any order (by default an operator's import); for a repeated
   * variant, region and time the later row wins.
   */
  async ingest(batch: readonly IngestObservation[], source: PriceSource = 'imported'): Promise<IngestResult> {
    return this.ingestSeries(groupBySeries(batch, source));
  }

  /**
   * Whole series at once (each ascending with unique times), as a bulk feed or the loader sends them.
   * `expectNew`: the caller expects none of them stored (a first load), so they are encoded before
   * the transaction, while an earlier batch may still hold the locks; if any turns out stored, the
   * batch is encoded again against what is.
   */
  async ingestSeries(
    batch: readonly IngestSeries[],
    options: { expectNew?: boolean } = {},
  ): Promise<IngestResult> {
    const incoming = new Map<string, IngestSeries>();
    let observations = 0;
    for (const s of batch) {
      const key = seriesKey(s.variantUuid, s.region);
      if (incoming.has(key)) throw new Error(`series ${key} appears twice in one batch`);
      incoming.set(key, s);
      observations += s.t.length;
    }
    const encodedAhead = options.expectNew ? await encodeBatch(incoming) : undefined;
    return inTransaction(this.ds, async (client) => {
      // Two ingests touching the same series are serialised (two merges of one month row would
      // otherwise lose one side's observations); ingests of other series run side by side and
      // readers are never blocked. Series hash into 256 lock buckets, taken in ascending order
      // so that two ingests cannot deadlock; the locks end with the transaction.
      await execute(client, lockSeriesStatement([...incoming.keys()]));
      const existing = await this.loadSeries(client, [...incoming.values()]);
      // A series holds one source's observations: a stored series of another source (the sample's
      // simulated prices, when a real feed first prices the variant) is dropped and written anew.
      const others = await this.seriesOfOtherSources(client, [...incoming.values()]);
      const replaced = others.filter((s) => s.storedSource === 'simulated');
      const refused = others.filter((s) => s.storedSource !== 'simulated');
      for (const s of refused) incoming.delete(seriesKey(s.variantUuid, s.region));
      if (replaced.length > 0) await execute(client, deleteReplacedSeriesStatement(replaced));
      const replacedKeys = new Set(replaced.map((s) => seriesKey(s.variantUuid, s.region)));

      // Series with nothing stored yet (every series of a first load) are COPYed straight into
      // the tables; the others go through a temp table and an upsert. The series locks above make
      // "nothing stored" stable for the whole transaction.
      const lines =
        encodedAhead && existing.size === 0 && others.length === 0
          ? encodedAhead
          : await encodeBatch(incoming, (key) => ({
              stored: replacedKeys.has(key) ? undefined : existing.get(key),
              replaced: replacedKeys.has(key),
            }));
      const { inserted, updated, unchanged } = lines;
      const seriesRefreshed = lines.stats.length + lines.newStats.length;

      await copyBinaryInto(client, `price_series (${SERIES_COLUMN_LIST})`, lines.newSeries);
      if (lines.newStats.length > 0)
        await copyInto(client, `variant_prices (${STATS_COLUMN_LIST})`, lines.newStats);
      if (lines.series.count > 0) {
        await execute(client, createIngestSeriesStatement());
        await copyBinaryInto(client, `ingest_series (${SERIES_COLUMN_LIST})`, lines.series);
        await execute(client, upsertSeriesStatement());
      }
      if (lines.stats.length > 0) {
        await execute(client, createIngestStatsStatement());
        await copyInto(client, `ingest_stats (${STATS_COLUMN_LIST})`, lines.stats);
        await execute(client, upsertStatsStatement());
      }
      // The cards whose default answers hold a changed series, rendered again in this transaction.
      await refreshDocumentsOfVariants(client, [...lines.documentVariants]);
      // A series added or dropped is marked by variant_prices' triggers (SummaryMarksByTrigger).
      if (seriesRefreshed > 0) await markSummariesStale(client);
      return {
        observations,
        inserted,
        updated,
        unchanged,
        seriesRefreshed,
        seriesReplaced: replaced.length,
        refused,
      };
    });
  }

  /** The given series that are stored with another source than the one now written. */
  private async seriesOfOtherSources(
    client: PoolClient,
    series: readonly IngestSeries[],
  ): Promise<{ variantUuid: string; region: string; storedSource: PriceSource }[]> {
    if (series.length === 0) return [];
    const rows = await rowsOf(client, OTHER_SOURCE_ROW, seriesOfOtherSourcesStatement(series));
    return rows.map((r) => ({
      variantUuid: r.variant_uuid,
      region: r.region,
      storedSource: storedSource(r.source),
    }));
  }

  /** The stored month rows of the given series, by series key. */
  private async loadSeries(
    client: PoolClient,
    series: readonly IngestSeries[],
  ): Promise<Map<string, MonthChunk[]>> {
    const result = new Map<string, MonthChunk[]>();
    if (series.length === 0) return result;
    const rows = await rowsOf(client, MONTH_ROW, storedMonthsStatement(series));
    for (const r of rows) {
      const key = seriesKey(r.variant_uuid, r.region);
      const list = result.get(key) ?? [];
      list.push({ monthStart: Number(r.month_start), offsets: r.offsets, prices: r.prices });
      result.set(key, list);
    }
    return result;
  }
}

/** Advisory-lock class of the series buckets (the first key of the two-key lock form). */
const SERIES_LOCK_CLASS = 7_310;

const SKU_ROW = rowSchema('variants of SKUs', { uuid: 'string', vendor_sku_id: 'string' });
const REF_ROW = rowSchema('variants of references', { uuid: 'string', id: 'string' });
const OTHER_SOURCE_ROW = rowSchema('series of other sources', {
  variant_uuid: 'string',
  region: 'string',
  source: 'string',
});
const MONTH_ROW = rowSchema('stored months', {
  variant_uuid: 'string',
  region: 'string',
  month_start: 'string',
  offsets: 'int[]',
  prices: 'int[]',
});

/** The columns of `price_series` and `variant_prices` an ingest writes, in its COPY lines' order. */
const SERIES_COLUMNS = [
  'variant_uuid',
  'region',
  'month',
  'offsets',
  'prices',
] as const satisfies readonly (keyof Database['price_series'])[];
const STATS_COLUMNS = [
  'variant_uuid',
  'region',
  'currency',
  'price',
  'updated_at',
  'change_24h',
  'change_7d',
  'change_30d',
  'change_90d',
  'price_7d_ref',
  'stats',
  'source',
  ...RENDERED_COLUMNS,
] as const satisfies readonly (keyof Database['variant_prices'])[];
// Column names go into the statements as they are: they come from these lists only.
const SERIES_COLUMN_LIST = SERIES_COLUMNS.join(', ');
const STATS_COLUMN_LIST = STATS_COLUMNS.join(', ');

export function vendorSkusStatement(skus: readonly string[]) {
  return db
    .selectFrom('variants')
    .select(['uuid', 'vendor_sku_id'])
    .where(sql<boolean>`vendor_sku_id = ANY(${[...new Set(skus)]}::text[])`);
}

/** The variants among these UUIDs (lower case) and slugs. */
export function variantRefsStatement(uuids: readonly string[], ids: readonly string[]) {
  return db
    .selectFrom('variants')
    .select(['uuid', 'id'])
    .where(sql<boolean>`uuid = ANY(${uuids}::uuid[]) OR id = ANY(${ids}::text[])`);
}

/**
 * Takes the transaction's locks of these series' buckets (by series key): series hash into 256
 * buckets, locked in ascending order.
 */
export function lockSeriesStatement(seriesKeys: readonly string[]) {
  return sql`SELECT count(pg_advisory_xact_lock(${sql.lit(SERIES_LOCK_CLASS)}, b))
         FROM (SELECT DISTINCT hashtext(k) & 255 AS b FROM unnest(${seriesKeys}::text[]) AS k ORDER BY 1) AS buckets`;
}

/** Deletes the stored month rows of these series. */
export function deleteReplacedSeriesStatement(series: readonly { variantUuid: string; region: string }[]) {
  return sql`DELETE FROM price_series p USING unnest(${series.map((s) => s.variantUuid)}::uuid[], ${series.map((s) => s.region)}::text[]) AS k(variant_uuid, region)
           WHERE p.variant_uuid = k.variant_uuid AND p.region = k.region`;
}

export function createIngestSeriesStatement() {
  return sql`CREATE TEMP TABLE ingest_series (LIKE price_series INCLUDING DEFAULTS) ON COMMIT DROP`;
}

/** Writes the month rows COPYed into `ingest_series` over the stored ones. */
export function upsertSeriesStatement() {
  const columns = sql.raw(SERIES_COLUMN_LIST);
  return sql`INSERT INTO price_series (${columns})
          SELECT ${columns} FROM ingest_series
          ON CONFLICT (variant_uuid, region, month)
          DO UPDATE SET offsets = EXCLUDED.offsets, prices = EXCLUDED.prices`;
}

export function createIngestStatsStatement() {
  return sql`CREATE TEMP TABLE ingest_stats (LIKE variant_prices INCLUDING DEFAULTS) ON COMMIT DROP`;
}

/** Writes the statistics COPYed into `ingest_stats` over the stored ones: every column but the key. */
export function upsertStatsStatement() {
  const columns = sql.raw(STATS_COLUMN_LIST);
  const updated = STATS_COLUMNS.filter((c) => c !== 'variant_uuid' && c !== 'region')
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');
  return sql`INSERT INTO variant_prices AS v (${columns})
          SELECT ${columns} FROM ingest_stats
          ON CONFLICT (variant_uuid, region) DO UPDATE SET ${sql.raw(updated)}`;
}

/** The given series that are stored with another source than theirs. */
export function seriesOfOtherSourcesStatement(series: readonly IngestSeries[]) {
  return sql`SELECT vp.variant_uuid, vp.region, vp.source
       FROM unnest(${series.map((s) => s.variantUuid)}::uuid[], ${series.map((s) => s.region)}::text[], ${series.map((s) => s.source)}::text[]) AS k(variant_uuid, region, source)
       JOIN variant_prices vp ON vp.variant_uuid = k.variant_uuid AND vp.region = k.region
       WHERE vp.source <> k.source`;
}

/** The stored month rows of the given series. */
export function storedMonthsStatement(series: readonly { variantUuid: string; region: string }[]) {
  // One primary-key probe per series (LATERAL, fenced by OFFSET 0). As a plain join the
  // planner, which cannot see how few keys the arrays hold, hashed a scan of the whole table:
  // at `full`, 12.5 s for a batch's 5,000 series against 0.6 s probed (EXPLAIN ANALYZE).
  return sql`SELECT k.variant_uuid, k.region, extract(epoch FROM s.month)::bigint AS month_start, s.offsets, s.prices
       FROM unnest(${series.map((s) => s.variantUuid)}::uuid[], ${series.map((s) => s.region)}::text[]) AS k(variant_uuid, region)
       CROSS JOIN LATERAL (
         SELECT p.month, p.offsets, p.prices FROM price_series p
         WHERE p.variant_uuid = k.variant_uuid AND p.region = k.region
         OFFSET 0
       ) s`;
}

/** A stored series' source; the column's CHECK holds it to PRICE_SOURCES. */
function storedSource(source: string): PriceSource {
  const known = PRICE_SOURCES.find((s) => s === source);
  if (known === undefined) throw new TypeError(`variant_prices holds an unknown source ${source}`);
  return known;
}

/** A series' key in a map of series (one variant's prices in one region). */
export function seriesKey(variantUuid: string, region: string): string {
  return `${variantUuid}|${region}`;
}

function groupBySeries(batch: readonly IngestObservation[], source: PriceSource): IngestSeries[] {
  const groups = new Map<string, { variantUuid: string; region: string; points: [number, number][] }>();
  for (const o of batch) {
    const key = seriesKey(o.variantUuid, o.region);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { variantUuid: o.variantUuid, region: o.region, points: [] }));
    g.points.push([o.t, o.price]);
  }
  return [...groups.values()].map((g) => ({
    variantUuid: g.variantUuid,
    region: g.region,
    source,
    ...normaliseSeries(g.points),
  }));
}
