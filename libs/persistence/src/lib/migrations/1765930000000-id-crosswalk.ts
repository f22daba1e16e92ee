import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `card_id_assertions` (issue 40, item 4: the id crosswalk): every marketplace or card-data id a
 * feed said a card (or one of its variants) has, with the feed, the first and last UTC day a sync
 * read it there and the runs that did. Written by the feeds in the transactions of their own
 * writes (`lib/crosswalk/`, docs/id-crosswalk.md); read by `GET /v2/cards/{id}/ids` and
 * `GET /v2/ids/{kind}/{value}`.
 *
 * One row per card, variant (null: the card's own id), kind, value and feed, so that two feeds
 * saying the same thing are two rows and two feeds saying different things can be shown side by
 * side. NULLS NOT DISTINCT (PostgreSQL 15+; the compose file runs 16): a card-level id and an
 * unattributed row are keys like any other.
 *
 * The back-fill takes what the catalogue's columns already hold, attributed only where one feed
 * alone can have written it, and never with a day (no record says when):
 * - `marketplace_products` (Cardmarket): only MTGJSON's `mcmId` fills it → `mtgjson`;
 * - a Magic card's `openset_id` shaped as a UUID: the loader writes MTGJSON v3's 40-hex ids, only
 *   the MTGJSON feed writes v5 uuids → `mtgjson`;
 * - `vendor_id` (TCGplayer product) of any card, `imagedb_id` (Scryfall id) and the SKUs of Magic
 *   variants: the MTGJSON feed, Scryfall, TCGCSV or the packaged catalogues may have written each
 *   → unattributed (feed null). Other games' SKUs are left out: the sample's are made up
 *   (`syntheticSku`), and nothing tells them from real ones.
 */
export class IdCrosswalk1765930000000 implements MigrationInterface {
  name = 'IdCrosswalk1765930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_id_assertions (
        card_uuid    uuid NOT NULL REFERENCES cards (uuid) ON DELETE CASCADE,
        variant_uuid uuid REFERENCES variants (uuid) ON DELETE CASCADE,
        kind         text NOT NULL,
        value        text NOT NULL,
        feed         text,
        first_seen   date,
        last_seen    date,
        first_run    bigint REFERENCES feed_runs (id) ON DELETE SET NULL,
        last_run     bigint REFERENCES feed_runs (id) ON DELETE SET NULL,
        CONSTRAINT card_id_assertions_key UNIQUE NULLS NOT DISTINCT (card_uuid, variant_uuid, kind, value, feed),
        CONSTRAINT card_id_assertions_kind CHECK (kind IN (
          'tcgplayer_product', 'tcgplayer_etched_product', 'tcgplayer_sku', 'cardmarket_product',
          'scryfall_id', 'mtgjson_uuid', 'multiverse_id')),
        CONSTRAINT card_id_assertions_value CHECK (length(value) BETWEEN 1 AND 64),
        CONSTRAINT card_id_assertions_feed CHECK (feed IN ('mtgjson', 'scryfall', 'tcgcsv', 'cardmarket')),
        CONSTRAINT card_id_assertions_days CHECK (first_seen <= last_seen)
      )`);
    // card → ids is the key's prefix; kind + value → cards is this one.
    await q.query(`CREATE INDEX card_id_assertions_value_idx ON card_id_assertions (kind, value)`);
    // A deleted variant's rows are found by it (ON DELETE CASCADE), not by scanning.
    await q.query(
      `CREATE INDEX card_id_assertions_variant_idx ON card_id_assertions (variant_uuid) WHERE variant_uuid IS NOT NULL`,
    );

    await q.query(`
      INSERT INTO card_id_assertions (card_uuid, variant_uuid, kind, value, feed)
      SELECT card_uuid, NULL::uuid, 'cardmarket_product'::text, product_id, 'mtgjson'::text
      FROM marketplace_products WHERE marketplace = 'cardmarket'
      UNION
      SELECT uuid, NULL, 'mtgjson_uuid', lower(openset_id), 'mtgjson' FROM cards
      WHERE game_id = 'magic-the-gathering'
        AND openset_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      UNION
      SELECT uuid, NULL, 'tcgplayer_product', vendor_id, NULL FROM cards
      WHERE vendor_id ~ '^[1-9][0-9]{0,19}$'
      UNION
      SELECT uuid, NULL, 'scryfall_id', lower(imagedb_id), NULL FROM cards
      WHERE imagedb_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      UNION
      SELECT v.card_uuid, v.uuid, 'tcgplayer_sku', v.vendor_sku_id, NULL
      FROM variants v JOIN cards c ON c.uuid = v.card_uuid
      WHERE c.game_id = 'magic-the-gathering' AND v.vendor_sku_id ~ '^[1-9][0-9]{0,19}$'
      ON CONFLICT DO NOTHING`);

    await q.query(`GRANT SELECT ON card_id_assertions TO tcg_reader`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON card_id_assertions TO tcg_importer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_id_assertions`);
  }
}
