import { MigrationInterface, QueryRunner } from 'typeorm';
import { renderStoredCardDocuments } from './card-batches';

/**
 * Where prices come from (issue 23), and what a feed sync leaves behind:
 *
 * - `variant_prices.source`: each series' source (`PRICE_SOURCES` in the domain), named by every
 *   v2 market (its stored `v2_price` text gains a `source` member, so the stored card documents
 *   are rendered again). Series stored before are the sample's simulated ones, unless no sample
 *   load was ever recorded or their last observation is later than the load's completion: then an
 *   operator's import.
 * - `game_price_sources`: per game, the sources of its priced series, what `/v1/games` lists;
 *   refreshed with the other summaries.
 * - `variant_quotes`: the latest price of each variant from each source that is not its region's
 *   primary one (Card Kingdom, Mana Pool, Cardsphere, buylists, Scryfall's daily relay…), kept
 *   apart from the series so that sources are never mixed.
 * - `feed_runs`: one row per feed file a sync read: its digest, when it was fetched, what it
 *   held and what the mapping made of it.
 */
export class PriceSources1764900000000 implements MigrationInterface {
  name = 'PriceSources1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variant_prices ADD COLUMN source text`);
    // A sample load's series end when it completed; one observed later came from an import.
    await q.query(`
      UPDATE variant_prices vp SET source =
        CASE WHEN EXISTS (SELECT 1 FROM sample_loads l
                          WHERE vp.updated_at <= extract(epoch FROM coalesce(l.completed_at, now())))
             THEN 'simulated' ELSE 'imported' END`);
    await q.query(`ALTER TABLE variant_prices ALTER COLUMN source SET NOT NULL`);
    await q.query(`ALTER TABLE variant_prices ADD CONSTRAINT variant_prices_source_known
      CHECK (source IN ('simulated', 'imported', 'tcgplayer', 'cardmarket'))`);
    // The member is the text's last: strip one a previous render wrote, then write this one.
    await q.query(`
      UPDATE variant_prices SET v2_price =
        regexp_replace(v2_price, ',"source":("[a-z]+"|null)$', '') || ',"source":' || to_json(source)::text`);
    await renderStoredCardDocuments(q, ['v2_variants'], 'render card documents with price sources progress');

    await q.query(`
      CREATE MATERIALIZED VIEW game_price_sources AS
      SELECT g.id AS game_id,
             coalesce((SELECT array_agg(s.source ORDER BY s.source)
                       FROM (SELECT DISTINCT vp.source
                             FROM cards c
                             JOIN variants v ON v.card_uuid = c.uuid
                             JOIN variant_prices vp ON vp.variant_uuid = v.uuid
                             WHERE c.game_id = g.id) s), '{}')::text[] AS sources
      FROM games g`);
    await q.query(`CREATE UNIQUE INDEX game_price_sources_game_idx ON game_price_sources (game_id)`);

    await q.query(`
      CREATE TABLE variant_quotes (
        variant_uuid uuid NOT NULL REFERENCES variants (uuid) ON DELETE CASCADE,
        region       text NOT NULL,
        source       text NOT NULL,
        side         text NOT NULL CHECK (side IN ('retail', 'buylist')),
        currency     char(3) NOT NULL,
        observed_at  bigint NOT NULL,
        price        bigint NOT NULL CHECK (price >= 0),
        PRIMARY KEY (variant_uuid, region, source, side)
      )`);

    await q.query(`
      CREATE TABLE feed_runs (
        id           bigserial PRIMARY KEY,
        feed         text NOT NULL,
        file         text NOT NULL,
        sha256       text,
        fetched_at   timestamptz,
        started_at   timestamptz NOT NULL DEFAULT now(),
        finished_at  timestamptz,
        status       text NOT NULL CHECK (status IN ('running', 'imported', 'failed')),
        rows_read    bigint NOT NULL DEFAULT 0,
        matched      bigint NOT NULL DEFAULT 0,
        created      bigint NOT NULL DEFAULT 0,
        unmatched    bigint NOT NULL DEFAULT 0,
        observations bigint NOT NULL DEFAULT 0,
        reasons      jsonb NOT NULL DEFAULT '{}',
        error        text
      )`);
    await q.query(`CREATE INDEX feed_runs_feed_file_idx ON feed_runs (feed, file, id DESC)`);

    await q.query(`GRANT SELECT ON game_price_sources TO tcg_reader, tcg_importer`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON variant_quotes, feed_runs TO tcg_importer`);
    await q.query(`GRANT USAGE, SELECT ON SEQUENCE feed_runs_id_seq TO tcg_importer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS feed_runs`);
    await q.query(`DROP TABLE IF EXISTS variant_quotes`);
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS game_price_sources`);
    await q.query(
      `UPDATE variant_prices SET v2_price = regexp_replace(v2_price, ',"source":("[a-z]+"|null)$', '')`,
    );
    await q.query(`ALTER TABLE variant_prices DROP COLUMN IF EXISTS source`);
    await renderStoredCardDocuments(
      q,
      ['v2_variants'],
      'render card documents without price sources progress',
    );
  }
}
