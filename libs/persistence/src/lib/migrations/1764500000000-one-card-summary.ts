import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  CatalogueSummaries1764000000000,
  createSetAndGameSummaries,
} from './1764000000000-catalogue-summaries';
import { CardTopPrices1764400000000 } from './1764400000000-card-top-prices';

/**
 * card_values and card_top_prices held the same rows (each card's highest-priced raw NA variant),
 * each recomputed after every load or import. card_values now carries the changes as well and is
 * the only one; the set and game summaries built on it are created again with it.
 */
export class OneCardSummary1764500000000 implements MigrationInterface {
  name = 'OneCardSummary1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await dropSummaries(q);
    await createCardValues(q);
    await createSetAndGameSummaries(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropSummaries(q);
    await new CatalogueSummaries1764000000000().up(q);
    await new CardTopPrices1764400000000().up(q);
  }
}

export async function dropSummaries(q: QueryRunner): Promise<void> {
  for (const view of ['game_summaries', 'set_summaries', 'card_values', 'card_top_prices'])
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS ${view}`);
}

/**
 * card_values: each card's highest-priced raw NA variant with its price (`priceColumns`, the
 * columns of variant_prices `vp` it carries; a later migration adds one) and its changes.
 */
export async function createCardValues(q: QueryRunner, priceColumns = 'vp.price'): Promise<void> {
  await q.query(`
      CREATE MATERIALIZED VIEW card_values AS
      SELECT DISTINCT ON (v.card_uuid)
             v.card_uuid, c.game_id, c.set_uuid, ${priceColumns},
             vp.change_24h, vp.change_7d, vp.change_30d, vp.change_90d, vp.updated_at
      FROM variants v
      JOIN cards c ON c.uuid = v.card_uuid
      JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'
      WHERE v.type = 'raw'
      ORDER BY v.card_uuid, vp.price DESC, v.uuid`);
  await q.query(`CREATE UNIQUE INDEX card_values_card_idx ON card_values (card_uuid)`);
  await q.query(`CREATE INDEX card_values_game_idx ON card_values (game_id)`);
}
