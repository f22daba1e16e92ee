import type { Card, CardSet } from '@tcg/domain';
import { v1VariantHead, v2VariantHead } from '@tcg/rendering';
import { sql } from 'kysely';
import { DataSource } from 'typeorm';
import { writeCatalogue } from '../catalogue';
import { copyInto, copyLine } from '../sql/copy';
import { poolOf } from '../db/data-source';
import { refreshDocumentsOfVariants } from '../documents';
import { toVariant, VARIANT_COLUMN_TYPES, variantColumnsSql } from '../sql/variant-row';
import { db, shared } from '../sql/compile';
import type { Database } from '../sql/database';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf, rowsOf, type Connection } from '../sql/run';
import { markSummariesStale } from '../summaries';
import { recordIdAssertions, type AssertedIds } from '../crosswalk';
import { inTransaction, withSessionLock } from '../db/transaction';

/** The feed sync's session advisory lock (the sample load's is 7311). */
const FEED_SYNC_LOCK = 7_312;

/** A set of a game as a feed sync matches against it. */
export type IndexedSet = Omit<CardSet, 'gameId'>;

/** A card of a game as a feed sync matches against it: its set by UUID, the fields a sync may change. */
export type IndexedCard = Omit<Card, 'gameId' | 'setId'> & { readonly setUuid: string };

/** What a sync sets on a card it matched: its current name and identifiers from the feed. */
export type CardChange = Pick<
  IndexedCard,
  'uuid' | 'name' | 'number' | 'rarity' | 'details' | 'vendorId' | 'opensetId' | 'imagedbId'
>;

/** A price from a source that is not its region's primary one, latest per source and side. */
export interface VariantQuote {
  readonly variantUuid: string;
  readonly region: string;
  readonly source: string;
  readonly side: 'retail' | 'buylist';
  readonly currency: string;
  readonly observedAt: number;
  /** Minor units of `currency`. */
  readonly price: number;
}

/** A marketplace's product id of a card's printing (`marketplace_products`). */
export interface MarketplaceProduct {
  readonly productId: string;
  readonly cardUuid: string;
  readonly language: string;
}

/** A stored marketplace product with what a price sync needs of its card. */
export interface MarketplaceProductCard extends MarketplaceProduct {
  readonly cardId: string;
  readonly sealed: boolean;
}

/** One feed file's run, as `feed_runs` records it. */
export interface FeedRunCounts {
  readonly rowsRead: number;
  readonly matched: number;
  readonly created: number;
  readonly unmatched: number;
  readonly observations: number;
  /** Unmatched rows by reason. */
  readonly reasons: Readonly<Record<string, number>>;
  /** The first few distinct values seen under each reason (an unknown condition's text, say). */
  readonly samples?: Readonly<Record<string, readonly string[]>>;
}

const COUNT = rowSchema('feed count', { n: 'int' });
const SET_ROW = rowSchema('feed index sets', {
  uuid: 'string',
  id: 'string',
  code: 'string',
  name: 'string',
  releaseDate: 'string?',
});
const CARD_ROW = rowSchema('feed index cards', {
  uuid: 'string',
  id: 'string',
  setUuid: 'string',
  name: 'string',
  number: 'string?',
  rarity: 'string?',
  details: 'string?',
  vendorId: 'string?',
  opensetId: 'string?',
  imagedbId: 'string?',
  sealed: 'boolean',
});
const DIGEST_ROW = rowSchema('tcgcsv group digests', { group_id: 'int', digest: 'string' });
const ID_ROW = rowSchema('catalogue slugs', { id: 'string' });
const OBSERVED_ROW = rowSchema('last observed', { variant_uuid: 'string', updated_at: 'string' });
const SKU_ROW = rowSchema('variant SKUs', { uuid: 'string', vendor_sku_id: 'string?' });
const SKU_HOLDER_ROW = rowSchema('variants of SKUs', { uuid: 'string', vendor_sku_id: 'string' });
/** A variant's columns as `VariantColumns` names them (`variantColumnsSql`). */
const VARIANT_ROW = rowSchema('variants with another SKU', {
  ...VARIANT_COLUMN_TYPES,
});
const SERIES_KEY_ROW = rowSchema('simulated series of cards', { variant_uuid: 'string', region: 'string' });
const PRODUCT_CARD_ROW = rowSchema('marketplace product cards', {
  productId: 'string',
  cardUuid: 'string',
  language: 'string',
  cardId: 'string',
  sealed: 'boolean',
});
const GAME_ROW = rowSchema('game of products', { id: 'string', name: 'string' });
const RUN_ID_ROW = rowSchema('feed run id', { id: 'string' });
const NAME_ROW = rowSchema('database name', { name: 'string' });

/** The temp tables a sync's transaction fills with COPY, each dropped at its commit. */
type FeedTables = {
  /** A feed's cards: the columns of `cards` a feed sets. */
  feed_cards: Pick<
    Database['cards'],
    'uuid' | 'name' | 'number' | 'rarity' | 'details' | 'vendor_id' | 'openset_id' | 'imagedb_id'
  >;
  feed_skus: { uuid: string; sku: string; v1: string; v2: string };
};
const feedDb = db.withTables<FeedTables>();

export function countGameStatement(gameId: string) {
  return db
    .selectFrom('games')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('id', '=', gameId);
}

export function setsOfGameStatement(gameId: string) {
  return db
    .selectFrom('sets')
    .select([
      'uuid',
      'id',
      'code',
      'name',
      sql<string | null>`to_char(release_date, 'YYYY-MM-DD')`.as('releaseDate'),
    ])
    .where('game_id', '=', gameId)
    .orderBy('id');
}

export function cardsOfGameStatement(gameId: string) {
  return db
    .selectFrom('cards')
    .select([
      'uuid',
      'id',
      'set_uuid as setUuid',
      'name',
      'number',
      'rarity',
      'details',
      'vendor_id as vendorId',
      'openset_id as opensetId',
      'imagedb_id as imagedbId',
      'sealed',
    ])
    .where('game_id', '=', gameId)
    .orderBy('id');
}

export function tcgcsvGroupDigestsStatement(gameId: string, categoryId: number, day: string) {
  return sql`SELECT group_id, digest FROM tcgcsv_group_digests WHERE category_id = ${categoryId} AND day = ${day} AND game_id = ${gameId}`;
}

export function recordTcgcsvGroupDigestStatement(
  gameId: string,
  categoryId: number,
  groupId: number,
  day: string,
  digest: string,
) {
  const game = shared(gameId);
  return sql`INSERT INTO tcgcsv_group_digests (category_id, group_id, day, game_id, digest)
       SELECT ${categoryId}, ${groupId}, ${day}, ${game}, ${digest} WHERE EXISTS (SELECT 1 FROM games WHERE id = ${game})
       ON CONFLICT (category_id, day, group_id)
       DO UPDATE SET game_id = EXCLUDED.game_id, digest = EXCLUDED.digest, applied_at = now()`;
}

export function setIdsStatement() {
  return db.selectFrom('sets').select('id');
}

export function cardIdsStatement() {
  return db.selectFrom('cards').select('id');
}

export function lastObservedStatement(variantUuids: readonly string[], region: string) {
  return db
    .selectFrom('variant_prices')
    .select(['variant_uuid', 'updated_at'])
    .where(sql<boolean>`variant_uuid = ANY(${[...new Set(variantUuids)]}::uuid[])`)
    .where('region', '=', region);
}

export function variantSkusStatement(uuids: readonly string[]) {
  return db
    .selectFrom('variants')
    .select(['uuid', 'vendor_sku_id'])
    .where(sql<boolean>`uuid = ANY(${[...new Set(uuids)]}::uuid[])`);
}

export function variantsOfSkusStatement(skus: readonly string[]) {
  return db
    .selectFrom('variants')
    .select(['uuid', 'vendor_sku_id'])
    .where(sql<boolean>`vendor_sku_id = ANY(${[...new Set(skus)]}::text[])`);
}

export function createFeedCardsStatement() {
  return sql`CREATE TEMP TABLE feed_cards (
        uuid uuid, name text, number text, rarity text, details text,
        vendor_id text, openset_id text, imagedb_id text) ON COMMIT DROP`;
}

/** A stored card `c` that its feed row `f` changes. */
const CARD_DIFFERS = sql<boolean>`(c.name, c.number, c.rarity, c.details, c.vendor_id, c.openset_id, c.imagedb_id)
        IS DISTINCT FROM (f.name, f.number, f.rarity, f.details, f.vendor_id, f.openset_id, f.imagedb_id)`;

export function countChangedCardsStatement() {
  return feedDb
    .selectFrom('cards as c')
    .innerJoin('feed_cards as f', 'f.uuid', 'c.uuid')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(CARD_DIFFERS);
}

export function updateChangedCardsStatement() {
  return feedDb
    .updateTable('cards as c')
    .from('feed_cards as f')
    .set((eb) => ({
      name: eb.ref('f.name'),
      number: eb.ref('f.number'),
      rarity: eb.ref('f.rarity'),
      details: eb.ref('f.details'),
      vendor_id: eb.ref('f.vendor_id'),
      openset_id: eb.ref('f.openset_id'),
      imagedb_id: eb.ref('f.imagedb_id'),
    }))
    .whereRef('f.uuid', '=', 'c.uuid')
    .where(CARD_DIFFERS);
}

/** The variants among these whose SKU is not the one given. */
export function variantsWithOtherSkusStatement(skus: ReadonlyMap<string, string>) {
  return sql`SELECT ${sql.raw(variantColumnsSql('v'))} FROM variants v
         JOIN unnest(${[...skus.keys()]}::uuid[], ${[...skus.values()]}::text[]) AS k(uuid, sku) ON k.uuid = v.uuid
         WHERE v.vendor_sku_id IS DISTINCT FROM k.sku`;
}

export function createFeedSkusStatement() {
  return sql`CREATE TEMP TABLE feed_skus (uuid uuid, sku text, v1 text, v2 text) ON COMMIT DROP`;
}

export function updateVariantSkusStatement() {
  return feedDb
    .updateTable('variants as v')
    .from('feed_skus as f')
    .set((eb) => ({ vendor_sku_id: eb.ref('f.sku'), v1_head: eb.ref('f.v1'), v2_head: eb.ref('f.v2') }))
    .whereRef('f.uuid', '=', 'v.uuid');
}

export function simulatedSeriesOfCardsStatement(cardUuids: readonly string[]) {
  // Probed card by card (variants by card, then prices by key; LATERAL fenced by OFFSET 0):
  // as a plain join the planner, blind to how few cards the array holds, scanned the whole
  // of variant_prices for every group a feed writes, 26 ms a group at 5% of the
  // marketplace's size and growing with the table (EXPLAIN ANALYZE).
  return sql`SELECT vp.variant_uuid, vp.region
         FROM unnest(${[...new Set(cardUuids)]}::uuid[]) AS k(card_uuid)
         CROSS JOIN LATERAL (SELECT v.uuid FROM variants v WHERE v.card_uuid = k.card_uuid OFFSET 0) v
         CROSS JOIN LATERAL (
           SELECT p.variant_uuid, p.region FROM variant_prices p
           WHERE p.variant_uuid = v.uuid AND p.source = 'simulated'
           OFFSET 0
         ) vp`;
}

/** Deletes the rows of `table` of these series (parallel arrays of variant and region). */
export function deleteSimulatedSeriesStatement(
  table: 'price_series' | 'variant_prices',
  variantUuids: readonly string[],
  regions: readonly string[],
) {
  return sql`DELETE FROM ${sql.raw(table)} t USING unnest(${variantUuids}::uuid[], ${regions}::text[]) AS k(variant_uuid, region)
         WHERE t.variant_uuid = k.variant_uuid AND t.region = k.region`;
}

export function createFeedQuotesStatement() {
  return sql`CREATE TEMP TABLE feed_quotes (LIKE variant_quotes) ON COMMIT DROP`;
}

export function upsertQuotesStatement() {
  return sql`INSERT INTO variant_quotes AS q SELECT * FROM feed_quotes
         ON CONFLICT (variant_uuid, region, source, side) DO UPDATE
           SET currency = EXCLUDED.currency, observed_at = EXCLUDED.observed_at, price = EXCLUDED.price
           WHERE q.observed_at < EXCLUDED.observed_at
              OR (q.observed_at = EXCLUDED.observed_at AND q.price <> EXCLUDED.price)`;
}

/** The incoming products as rows `k`. */
function incomingProducts(products: readonly MarketplaceProduct[]) {
  return sql`unnest(${products.map((p) => p.productId)}::text[], ${products.map((p) => p.cardUuid)}::uuid[], ${products.map((p) => p.language)}::text[]) AS k(product_id, card_uuid, language)`;
}

/** How many of these products (one per product id) are new or differ from the stored ones. */
export function countChangedProductsStatement(marketplace: string, products: readonly MarketplaceProduct[]) {
  return sql`SELECT count(*)::int AS n FROM ${incomingProducts(products)}
       LEFT JOIN marketplace_products m ON m.marketplace = ${marketplace} AND m.product_id = k.product_id
       WHERE (m.card_uuid, m.language) IS DISTINCT FROM (k.card_uuid, k.language)`;
}

/** Writes these products (one per product id) where they are new or differ. */
export function upsertProductsStatement(marketplace: string, products: readonly MarketplaceProduct[]) {
  return sql`INSERT INTO marketplace_products AS m (marketplace, product_id, card_uuid, language)
       SELECT ${marketplace}, k.product_id, k.card_uuid, k.language FROM ${incomingProducts(products)}
       ON CONFLICT (marketplace, product_id) DO UPDATE SET card_uuid = EXCLUDED.card_uuid, language = EXCLUDED.language
         WHERE (m.card_uuid, m.language) IS DISTINCT FROM (EXCLUDED.card_uuid, EXCLUDED.language)`;
}

export function productCardsStatement(marketplace: string, productIds: readonly string[]) {
  return db
    .selectFrom('marketplace_products as m')
    .innerJoin('cards as c', 'c.uuid', 'm.card_uuid')
    .select([
      'm.product_id as productId',
      'm.card_uuid as cardUuid',
      'm.language',
      'c.id as cardId',
      'c.sealed',
    ])
    .where('m.marketplace', '=', marketplace)
    .where(sql<boolean>`m.product_id = ANY(${[...new Set(productIds)]}::text[])`);
}

/** The game whose cards carry most of these TCGplayer product ids (the first thousand). */
export function gameOfProductsStatement(productIds: readonly number[]) {
  return sql`SELECT g.id, g.name FROM cards c JOIN games g ON g.id = c.game_id
     WHERE c.vendor_id = ANY(${productIds.slice(0, 1000).map(String)}::text[])
     GROUP BY g.id, g.name ORDER BY count(*) DESC, g.id LIMIT 1`;
}

export function closeInterruptedRunsStatement() {
  return db
    .updateTable('feed_runs')
    .set({ status: 'failed', finished_at: sql<Date>`now()`, error: 'interrupted (the sync was killed)' })
    .where('status', '=', 'running');
}

export function startRunStatement(feed: string, file: string) {
  return db.insertInto('feed_runs').values({ feed, file, status: 'running' }).returning('id');
}

export function finishRunStatement(
  id: string,
  file: { file: string; sha256?: string; fetchedAt?: Date },
  counts: FeedRunCounts,
  error?: string,
) {
  return db
    .updateTable('feed_runs')
    .set({
      finished_at: sql<Date>`now()`,
      status: error === undefined ? 'imported' : 'failed',
      rows_read: counts.rowsRead,
      matched: counts.matched,
      created: counts.created,
      unmatched: counts.unmatched,
      observations: counts.observations,
      reasons: JSON.stringify(counts.reasons),
      error: error === undefined ? null : error.replaceAll('\u0000', '').slice(0, 2_000),
      file: file.file,
      sha256: file.sha256 ?? null,
      fetched_at: file.fetchedAt ?? null,
      samples: JSON.stringify(counts.samples ?? {}),
    })
    .where('id', '=', id);
}

/** The database a sync writes to: its name, the server's address and port. */
export function databaseNameStatement() {
  return sql`SELECT current_database() || '@' || coalesce(inet_server_addr()::text, 'local') || ':' || coalesce(inet_server_port(), 0) AS name`;
}

/**
 * The writes of a feed sync (tools/feeds) beyond what the loader's writer and the price ingest do:
 * matching a feed against the stored catalogue, updating what a feed renames or identifies,
 * real SKUs, the other sources' quotes and the run records. Every write is skipped when it would
 * change nothing, so that a second sync of the same files leaves the data version as it was (a
 * statement on a catalogue table takes a new version even when it touches no row).
 */
export class FeedCatalogueRepository {
  constructor(private readonly ds: DataSource) {}

  private get pool(): Connection {
    return poolOf(this.ds);
  }

  /** Adds the game unless it is stored: a statement only when it is new. */
  async ensureGame(game: { id: string; name: string }): Promise<void> {
    const { n } = await rowOf(this.pool, COUNT, countGameStatement(game.id));
    if (n === 0) await writeCatalogue(this.ds, { games: [game], sets: [], cards: [], variants: [] });
  }

  /** The sets and cards of a game. */
  async gameIndex(gameId: string): Promise<{ sets: IndexedSet[]; cards: IndexedCard[] }> {
    const sets = await rowsOf(this.pool, SET_ROW, setsOfGameStatement(gameId));
    const cards = await rowsOf(this.pool, CARD_ROW, cardsOfGameStatement(gameId));
    return { sets, cards };
  }

  /** The digests of the groups of a TCGCSV category and day last applied in full for `gameId`. */
  async tcgcsvGroupDigests(gameId: string, categoryId: number, day: string): Promise<Map<number, string>> {
    const rows = await rowsOf(this.pool, DIGEST_ROW, tcgcsvGroupDigestsStatement(gameId, categoryId, day));
    return new Map(rows.map((r) => [r.group_id, r.digest]));
  }

  /**
   * Records that a TCGCSV group's documents of a day were applied in full for `gameId`; nothing
   * when the game is not stored (a group that wrote nothing made no game).
   */
  async recordTcgcsvGroupDigest(
    gameId: string,
    categoryId: number,
    groupId: number,
    day: string,
    digest: string,
  ): Promise<void> {
    await execute(this.pool, recordTcgcsvGroupDigestStatement(gameId, categoryId, groupId, day, digest));
  }

  /** Every set and card slug of every game: new ones must not take another game's. */
  async allIds(): Promise<{ sets: string[]; cards: string[] }> {
    const sets = await rowsOf(this.pool, ID_ROW, setIdsStatement());
    const cards = await rowsOf(this.pool, ID_ROW, cardIdsStatement());
    return { sets: sets.map((r) => r.id), cards: cards.map((r) => r.id) };
  }

  /** The day (Unix seconds) of each of these variants' last observation in `region`, where they have one. */
  async lastObserved(variantUuids: readonly string[], region: string): Promise<Map<string, number>> {
    if (variantUuids.length === 0) return new Map();
    const rows = await rowsOf(this.pool, OBSERVED_ROW, lastObservedStatement(variantUuids, region));
    return new Map(rows.map((r) => [r.variant_uuid, Number(r.updated_at)]));
  }

  /** The stored variants among these UUIDs, with their SKU. */
  async existingVariants(uuids: readonly string[]): Promise<Map<string, string | null>> {
    if (uuids.length === 0) return new Map();
    const rows = await rowsOf(this.pool, SKU_ROW, variantSkusStatement(uuids));
    return new Map(rows.map((r) => [r.uuid, r.vendor_sku_id]));
  }

  /** The variants holding these SKUs. */
  async variantsOfSkus(skus: readonly string[]): Promise<Map<string, string>> {
    if (skus.length === 0) return new Map();
    const rows = await rowsOf(this.pool, SKU_HOLDER_ROW, variantsOfSkusStatement(skus));
    return new Map(rows.map((r) => [r.vendor_sku_id, r.uuid]));
  }

  /**
   * Sets what a feed says of matched cards, in one transaction; only rows that differ are written.
   * `ids`: the ids the feed gives these and the unit's new cards (stored by now), recorded in the
   * same transaction whether or not a card changed (the id crosswalk).
   */
  async updateCards(changes: readonly CardChange[], ids?: AssertedIds): Promise<number> {
    if (changes.length === 0 && !ids) return 0;
    return inTransaction(this.ds, async (client) => {
      await recordIdAssertions(client, ids);
      if (changes.length === 0) return 0;
      await execute(client, createFeedCardsStatement());
      await copyInto(
        client,
        'feed_cards (uuid, name, number, rarity, details, vendor_id, openset_id, imagedb_id)',
        changes.map((c) =>
          copyLine([c.uuid, c.name, c.number, c.rarity, c.details, c.vendorId, c.opensetId, c.imagedbId]),
        ),
      );
      const { n } = await rowOf(client, COUNT, countChangedCardsStatement());
      if (n === 0) return 0;
      const updated = await execute(client, updateChangedCardsStatement());
      await markSummariesStale(client);
      return updated;
    });
  }

  /**
   * Gives variants their marketplace SKU (the feed's real one in place of none or a synthetic
   * one), renders their stored heads and their cards' documents again. Only variants whose SKU
   * differs are written; returns how many were. `ids`: the SKUs the feed gives stored variants,
   * recorded in the same transaction whether or not one changed (the id crosswalk).
   */
  async setVendorSkus(skus: ReadonlyMap<string, string>, ids?: AssertedIds): Promise<number> {
    if (skus.size === 0 && !ids) return 0;
    return inTransaction(this.ds, async (client) => {
      await recordIdAssertions(client, ids);
      if (skus.size === 0) return 0;
      const rows = await rowsOf(client, VARIANT_ROW, variantsWithOtherSkusStatement(skus));
      if (rows.length === 0) return 0;
      const changed = rows.map((r) => ({ ...toVariant(r), vendorSkuId: skus.get(r.uuid)! }));
      await execute(client, createFeedSkusStatement());
      await copyInto(
        client,
        'feed_skus (uuid, sku, v1, v2)',
        changed.map((v) => copyLine([v.uuid, v.vendorSkuId, v1VariantHead(v), v2VariantHead(v)])),
      );
      await execute(client, updateVariantSkusStatement());
      await refreshDocumentsOfVariants(
        client,
        changed.map((v) => v.uuid),
      );
      await markSummariesStale(client);
      return changed.length;
    });
  }

  /**
   * Removes the simulated prices of these cards' variants (every region): a card a real feed
   * prices carries no generated price beside its real ones. Returns how many series went.
   */
  async dropSimulatedPrices(cardUuids: readonly string[]): Promise<number> {
    if (cardUuids.length === 0) return 0;
    return inTransaction(this.ds, async (client) => {
      const rows = await rowsOf(client, SERIES_KEY_ROW, simulatedSeriesOfCardsStatement(cardUuids));
      if (rows.length === 0) return 0;
      const variants = rows.map((r) => r.variant_uuid);
      const regions = rows.map((r) => r.region);
      await execute(client, deleteSimulatedSeriesStatement('price_series', variants, regions));
      await execute(client, deleteSimulatedSeriesStatement('variant_prices', variants, regions));
      await refreshDocumentsOfVariants(client, [...new Set(variants)]);
      await markSummariesStale(client);
      return rows.length;
    });
  }

  /** Keeps each quote when it is newer than the stored one of its variant, region, source and side. */
  async upsertQuotes(quotes: readonly VariantQuote[]): Promise<number> {
    if (quotes.length === 0) return 0;
    const latest = new Map<string, VariantQuote>();
    for (const q of quotes) {
      const key = `${q.variantUuid}|${q.region}|${q.source}|${q.side}`;
      const had = latest.get(key);
      if (!had || had.observedAt <= q.observedAt) latest.set(key, q);
    }
    return inTransaction(this.ds, async (client) => {
      await execute(client, createFeedQuotesStatement());
      await copyInto(
        client,
        'feed_quotes (variant_uuid, region, source, side, currency, observed_at, price)',
        [...latest.values()].map((q) =>
          copyLine([q.variantUuid, q.region, q.source, q.side, q.currency, q.observedAt, q.price]),
        ),
      );
      return execute(client, upsertQuotesStatement());
    });
  }

  /**
   * Records which card printing each of a marketplace's product ids is; only rows that are new or
   * differ are written (none: no statement). Returns how many were.
   */
  async setMarketplaceProducts(
    marketplace: string,
    products: readonly MarketplaceProduct[],
  ): Promise<number> {
    if (products.length === 0) return 0;
    const latest = [...new Map(products.map((p) => [p.productId, p])).values()];
    const { n } = await rowOf(this.pool, COUNT, countChangedProductsStatement(marketplace, latest));
    if (n === 0) return 0;
    return execute(this.pool, upsertProductsStatement(marketplace, latest));
  }

  /** The cards of these product ids of a marketplace, where a feed recorded them. */
  async marketplaceProducts(
    marketplace: string,
    productIds: readonly string[],
  ): Promise<Map<string, MarketplaceProductCard>> {
    if (productIds.length === 0) return new Map();
    const rows = await rowsOf(this.pool, PRODUCT_CARD_ROW, productCardsStatement(marketplace, productIds));
    return new Map(rows.map((r) => [r.productId, r]));
  }

  /** The game whose cards carry most of these TCGplayer product ids, if any does. */
  async gameOfProducts(productIds: readonly number[]): Promise<{ id: string; name: string } | undefined> {
    if (productIds.length === 0) return undefined;
    const rows = await rowsOf(this.pool, GAME_ROW, gameOfProductsStatement(productIds));
    return rows[0];
  }

  /** The database a sync writes to, as its progress names it. */
  async databaseName(): Promise<string> {
    return (await rowOf(this.pool, NAME_ROW, databaseNameStatement())).name;
  }

  /** Marks the runs a killed sync left `running` as failed: call holding the sync's lock. */
  async closeInterruptedRuns(): Promise<void> {
    await execute(this.pool, closeInterruptedRunsStatement());
  }

  /** Records that a sync started on a feed file (by its name in the feed); returns the run's id. */
  async startRun(feed: string, file: string): Promise<string> {
    return (await rowOf(this.pool, RUN_ID_ROW, startRunStatement(feed, file))).id;
  }

  /**
   * Records how a run ended: the file read (its name as fetched, digest, fetch time), imported
   * with its counts, or failed with why (a file never fetched or refused by its check: no counts).
   */
  async finishRun(
    id: string,
    file: { file: string; sha256?: string; fetchedAt?: Date },
    counts: FeedRunCounts,
    error?: string,
  ): Promise<void> {
    await execute(this.pool, finishRunStatement(id, file, counts, error));
  }

  /**
   * Runs `work` as the only feed sync of this database: two syncs would race to create the same
   * variants and SKUs. A killed sync releases the lock with its connection. Returns undefined,
   * without running `work`, when another sync holds it.
   */
  exclusively<T>(work: () => Promise<T>): Promise<{ value: T } | undefined> {
    return withSessionLock(this.ds, FEED_SYNC_LOCK, work, { wait: false });
  }
}
