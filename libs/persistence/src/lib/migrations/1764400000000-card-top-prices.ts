import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each card's highest-priced raw variant in NA with its changes: what sorting by price or change
 * and `min_price` read in the default scope (raw variants, no variant filter), precomputed like
 * the other summaries and refreshed after every load or import, instead of a lateral join that
 * found the top variant of every card of the catalogue for each page ordered by price.
 */
export class CardTopPrices1764400000000 implements MigrationInterface {
  name = 'CardTopPrices1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE MATERIALIZED VIEW card_top_prices AS
      SELECT DISTINCT ON (v.card_uuid)
             v.card_uuid, c.game_id, c.set_uuid, vp.price,
             vp.change_24h, vp.change_7d, vp.change_30d, vp.change_90d
      FROM variants v
      JOIN cards c ON c.uuid = v.card_uuid
      JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'
      WHERE v.type = 'raw'
      ORDER BY v.card_uuid, vp.price DESC, v.uuid`);
    await q.query(`CREATE UNIQUE INDEX card_top_prices_card_idx ON card_top_prices (card_uuid)`);
    await q.query(`CREATE INDEX card_top_prices_game_idx ON card_top_prices (game_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS card_top_prices`);
  }
}
