import type { Card, CardSet } from '@tcg/domain';
import { v1VariantHead, v2VariantHead } from '@tcg/rendering';
import { DataSource } from 'typeorm';
import { writeCatalogue } from '../catalogue-writer';
import { copyInto, copyLine } from '../copy';
import { refreshDocumentsOfVariants } from '../prices/card-documents';
import { toVariant, variantColumnsSql, VariantColumns } from '../repositories/catalogue.mapper';
import { markSummariesStale } from '../summaries';
import { inTransaction, withSessionLock } from '../transaction';

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

/**
 * The writes of a feed sync (tools/feeds) beyond what the loader's writer and the price ingest do:
 * matching a feed against the stored catalogue, updating what a feed renames or identifies,
 * real SKUs, the other sources' quotes and the run records. Every write is skipped when it would
 * change nothing, so that a second sync of the same files leaves the data version as it was (a
 * statement on a catalogue table takes a new version even when it touches no row).
 */
export class FeedCatalogueRepository {
  constructor(private readonly ds: DataSource) {}

  /** Adds the game unless it is stored: a statement only when it is new. */
  async ensureGame(game: { id: string; name: string }): Promise<void> {
    const [{ n }]: { n: number }[] = await this.ds.query(
      `SELECT count(*)::int AS n FROM games WHERE id = $1`,
      [game.id],
    );
    if (n === 0) await writeCatalogue(this.ds, { games: [game], sets: [], cards: [], variants: [] });
  }

  /** The sets and cards of a game. */
  async gameIndex(gameId: string): Promise<{ sets: IndexedSet[]; cards: IndexedCard[] }> {
    const sets: IndexedSet[] = await this.ds.query(
      `SELECT uuid, id, code, name, to_char(release_date, 'YYYY-MM-DD') AS "releaseDate"
       FROM sets WHERE game_id = $1 ORDER BY id`,
      [gameId],
    );
    const cards: IndexedCard[] = await this.ds.query(
      `SELECT uuid, id, set_uuid AS "setUuid", name, number, rarity, details, vendor_id AS "vendorId",
              openset_id AS "opensetId", imagedb_id AS "imagedbId", sealed
       FROM cards WHERE game_id = $1 ORDER BY id`,
      [gameId],
    );
    return { sets, cards };
  }

  /** The digests of the groups of a TCGCSV category and day last applied in full for `gameId`. */
  async tcgcsvGroupDigests(gameId: string, categoryId: number, day: string): Promise<Map<number, string>> {
    const rows: { group_id: number; digest: string }[] = await this.ds.query(
      `SELECT group_id, digest FROM tcgcsv_group_digests WHERE category_id = $1 AND day = $2 AND game_id = $3`,
      [categoryId, day, gameId],
    );
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
    await this.ds.query(
      `INSERT INTO tcgcsv_group_digests (category_id, group_id, day, game_id, digest)
       SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM games WHERE id = $4)
       ON CONFLICT (category_id, day, group_id)
       DO UPDATE SET game_id = EXCLUDED.game_id, digest = EXCLUDED.digest, applied_at = now()`,
      [categoryId, groupId, day, gameId, digest],
    );
  }

  /** Every set and card slug of every game: new ones must not take another game's. */
  async allIds(): Promise<{ sets: string[]; cards: string[] }> {
    const sets: { id: string }[] = await this.ds.query(`SELECT id FROM sets`);
    const cards: { id: string }[] = await this.ds.query(`SELECT id FROM cards`);
    return { sets: sets.map((r) => r.id), cards: cards.map((r) => r.id) };
  }

  /** The day (Unix seconds) of each of these variants' last observation in `region`, where they have one. */
  async lastObserved(variantUuids: readonly string[], region: string): Promise<Map<string, number>> {
    if (variantUuids.length === 0) return new Map();
    const rows: { variant_uuid: string; updated_at: string }[] = await this.ds.query(
      `SELECT variant_uuid, updated_at FROM variant_prices WHERE variant_uuid = ANY($1::uuid[]) AND region = $2`,
      [[...new Set(variantUuids)], region],
    );
    return new Map(rows.map((r) => [r.variant_uuid, Number(r.updated_at)]));
  }

  /** The stored variants among these UUIDs, with their SKU. */
  async existingVariants(uuids: readonly string[]): Promise<Map<string, string | null>> {
    if (uuids.length === 0) return new Map();
    const rows: { uuid: string; vendor_sku_id: string | null }[] = await this.ds.query(
      `SELECT uuid, vendor_sku_id FROM variants WHERE uuid = ANY($1::uuid[])`,
      [[...new Set(uuids)]],
    );
    return new Map(rows.map((r) => [r.uuid, r.vendor_sku_id]));
  }

  /** The variants holding these SKUs. */
  async variantsOfSkus(skus: readonly string[]): Promise<Map<string, string>> {
    if (skus.length === 0) return new Map();
    const rows: { uuid: string; vendor_sku_id: string }[] = await this.ds.query(
      `SELECT uuid, vendor_sku_id FROM variants WHERE vendor_sku_id = ANY($1::text[])`,
      [[...new Set(skus)]],
    );
    return new Map(rows.map((r) => [r.vendor_sku_id, r.uuid]));
  }

  /** Sets what a feed says of matched cards, in one transaction; only rows that differ are written. */
  async updateCards(changes: readonly CardChange[]): Promise<number> {
    if (changes.length === 0) return 0;
    return inTransaction(this.ds, async (client) => {
      await client.query(`CREATE TEMP TABLE feed_cards (
        uuid uuid, name text, number text, rarity text, details text,
        vendor_id text, openset_id text, imagedb_id text) ON COMMIT DROP`);
      await copyInto(
        client,
        'feed_cards (uuid, name, number, rarity, details, vendor_id, openset_id, imagedb_id)',
        changes.map((c) =>
          copyLine([c.uuid, c.name, c.number, c.rarity, c.details, c.vendorId, c.opensetId, c.imagedbId]),
        ),
      );
      const differing = `(c.name, c.number, c.rarity, c.details, c.vendor_id, c.openset_id, c.imagedb_id)
        IS DISTINCT FROM (f.name, f.number, f.rarity, f.details, f.vendor_id, f.openset_id, f.imagedb_id)`;
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM cards c JOIN feed_cards f ON f.uuid = c.uuid WHERE ${differing}`,
      );
      if (rows[0]!.n === 0) return 0;
      const result = await client.query(
        `UPDATE cards c SET name = f.name, number = f.number, rarity = f.rarity, details = f.details,
           vendor_id = f.vendor_id, openset_id = f.openset_id, imagedb_id = f.imagedb_id
         FROM feed_cards f WHERE f.uuid = c.uuid AND ${differing}`,
      );
      await markSummariesStale(client);
      return result.rowCount ?? 0;
    });
  }

  /**
   * Gives variants their marketplace SKU (the feed's real one in place of none or a synthetic
   * one), renders their stored heads and their cards' documents again. Only variants whose SKU
   * differs are written; returns how many were.
   */
  async setVendorSkus(skus: ReadonlyMap<string, string>): Promise<number> {
    if (skus.size === 0) return 0;
    return inTransaction(this.ds, async (client) => {
      const { rows } = await client.query<VariantColumns>(
        `SELECT ${variantColumnsSql('v')} FROM variants v
         JOIN unnest($1::uuid[], $2::text[]) AS k(uuid, sku) ON k.uuid = v.uuid
         WHERE v.vendor_sku_id IS DISTINCT FROM k.sku`,
        [[...skus.keys()], [...skus.values()]],
      );
      if (rows.length === 0) return 0;
      const changed = rows.map((r) => ({ ...toVariant(r), vendorSkuId: skus.get(r.uuid)! }));
      await client.query(
        `CREATE TEMP TABLE feed_skus (uuid uuid, sku text, v1 text, v2 text) ON COMMIT DROP`,
      );
      await copyInto(
        client,
        'feed_skus (uuid, sku, v1, v2)',
        changed.map((v) => copyLine([v.uuid, v.vendorSkuId, v1VariantHead(v), v2VariantHead(v)])),
      );
      await client.query(
        `UPDATE variants v SET vendor_sku_id = f.sku, v1_head = f.v1, v2_head = f.v2
         FROM feed_skus f WHERE f.uuid = v.uuid`,
      );
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
      const { rows } = await client.query<{ variant_uuid: string; region: string }>(
        // Probed card by card (variants by card, then prices by key; LATERAL fenced by OFFSET 0):
        // as a plain join the planner, blind to how few cards the array holds, scanned the whole
        // of variant_prices for every group a feed writes, 26 ms a group at 5% of the
        // marketplace's size and growing with the table (EXPLAIN ANALYZE).
        `SELECT vp.variant_uuid, vp.region
         FROM unnest($1::uuid[]) AS k(card_uuid)
         CROSS JOIN LATERAL (SELECT v.uuid FROM variants v WHERE v.card_uuid = k.card_uuid OFFSET 0) v
         CROSS JOIN LATERAL (
           SELECT p.variant_uuid, p.region FROM variant_prices p
           WHERE p.variant_uuid = v.uuid AND p.source = 'simulated'
           OFFSET 0
         ) vp`,
        [[...new Set(cardUuids)]],
      );
      if (rows.length === 0) return 0;
      const keys = [rows.map((r) => r.variant_uuid), rows.map((r) => r.region)];
      await client.query(
        `DELETE FROM price_series t USING unnest($1::uuid[], $2::text[]) AS k(variant_uuid, region)
         WHERE t.variant_uuid = k.variant_uuid AND t.region = k.region`,
        keys,
      );
      await client.query(
        `DELETE FROM variant_prices t USING unnest($1::uuid[], $2::text[]) AS k(variant_uuid, region)
         WHERE t.variant_uuid = k.variant_uuid AND t.region = k.region`,
        keys,
      );
      await refreshDocumentsOfVariants(client, [...new Set(keys[0])]);
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
      await client.query(`CREATE TEMP TABLE feed_quotes (LIKE variant_quotes) ON COMMIT DROP`);
      await copyInto(
        client,
        'feed_quotes (variant_uuid, region, source, side, currency, observed_at, price)',
        [...latest.values()].map((q) =>
          copyLine([q.variantUuid, q.region, q.source, q.side, q.currency, q.observedAt, q.price]),
        ),
      );
      const result = await client.query(
        `INSERT INTO variant_quotes AS q SELECT * FROM feed_quotes
         ON CONFLICT (variant_uuid, region, source, side) DO UPDATE
           SET currency = EXCLUDED.currency, observed_at = EXCLUDED.observed_at, price = EXCLUDED.price
           WHERE q.observed_at < EXCLUDED.observed_at
              OR (q.observed_at = EXCLUDED.observed_at AND q.price <> EXCLUDED.price)`,
      );
      return result.rowCount ?? 0;
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
    const latest = new Map(products.map((p) => [p.productId, p]));
    const params = [
      marketplace,
      [...latest.keys()],
      [...latest.values()].map((p) => p.cardUuid),
      [...latest.values()].map((p) => p.language),
    ];
    const incoming = `unnest($2::text[], $3::uuid[], $4::text[]) AS k(product_id, card_uuid, language)`;
    const [{ n }]: { n: number }[] = await this.ds.query(
      `SELECT count(*)::int AS n FROM ${incoming}
       LEFT JOIN marketplace_products m ON m.marketplace = $1 AND m.product_id = k.product_id
       WHERE (m.card_uuid, m.language) IS DISTINCT FROM (k.card_uuid, k.language)`,
      params,
    );
    if (n === 0) return 0;
    const result: unknown[] = await this.ds.query(
      `INSERT INTO marketplace_products AS m (marketplace, product_id, card_uuid, language)
       SELECT $1, k.product_id, k.card_uuid, k.language FROM ${incoming}
       ON CONFLICT (marketplace, product_id) DO UPDATE SET card_uuid = EXCLUDED.card_uuid, language = EXCLUDED.language
         WHERE (m.card_uuid, m.language) IS DISTINCT FROM (EXCLUDED.card_uuid, EXCLUDED.language)
       RETURNING 1`,
      params,
    );
    return result.length;
  }

  /** The cards of these product ids of a marketplace, where a feed recorded them. */
  async marketplaceProducts(
    marketplace: string,
    productIds: readonly string[],
  ): Promise<Map<string, MarketplaceProductCard>> {
    if (productIds.length === 0) return new Map();
    const rows: MarketplaceProductCard[] = await this.ds.query(
      `SELECT m.product_id AS "productId", m.card_uuid AS "cardUuid", m.language, c.id AS "cardId", c.sealed
       FROM marketplace_products m JOIN cards c ON c.uuid = m.card_uuid
       WHERE m.marketplace = $1 AND m.product_id = ANY($2::text[])`,
      [marketplace, [...new Set(productIds)]],
    );
    return new Map(rows.map((r) => [r.productId, r]));
  }

  /** Marks the runs a killed sync left `running` as failed: call holding the sync's lock. */
  async closeInterruptedRuns(): Promise<void> {
    await this.ds.query(
      `UPDATE feed_runs SET status = 'failed', finished_at = now(), error = 'interrupted (the sync was killed)'
       WHERE status = 'running'`,
    );
  }

  /** Records that a sync started on a feed file (by its name in the feed); returns the run's id. */
  async startRun(feed: string, file: string): Promise<string> {
    const [{ id }]: { id: string }[] = await this.ds.query(
      `INSERT INTO feed_runs (feed, file, status) VALUES ($1, $2, 'running') RETURNING id`,
      [feed, file],
    );
    return id;
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
    await this.ds.query(
      `UPDATE feed_runs SET finished_at = now(), status = $2, rows_read = $3, matched = $4, created = $5,
         unmatched = $6, observations = $7, reasons = $8, error = $9, file = $10, sha256 = $11, fetched_at = $12,
         samples = $13
       WHERE id = $1`,
      [
        id,
        error === undefined ? 'imported' : 'failed',
        counts.rowsRead,
        counts.matched,
        counts.created,
        counts.unmatched,
        counts.observations,
        JSON.stringify(counts.reasons),
        error === undefined ? null : error.replaceAll('\u0000', '').slice(0, 2_000),
        file.file,
        file.sha256 ?? null,
        file.fetchedAt ?? null,
        JSON.stringify(counts.samples ?? {}),
      ],
    );
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
