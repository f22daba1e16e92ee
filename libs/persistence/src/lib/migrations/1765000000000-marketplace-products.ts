import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `marketplace_products` (issue 25): which card (and printing language) a marketplace's product id
 * is, where a feed says so, for marketplaces whose ids the card itself does not carry. Today:
 * Cardmarket's product ids of Magic printings, as MTGJSON publishes them (`mcmId`); the Cardmarket
 * price guide is matched through it and nothing else (no matching by name).
 */
export class MarketplaceProducts1765000000000 implements MigrationInterface {
  name = 'MarketplaceProducts1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE marketplace_products (
        marketplace text NOT NULL,
        product_id text NOT NULL,
        card_uuid uuid NOT NULL REFERENCES cards (uuid) ON DELETE CASCADE,
        language text NOT NULL,
        PRIMARY KEY (marketplace, product_id),
        CONSTRAINT marketplace_products_known CHECK (marketplace IN ('cardmarket')),
        CONSTRAINT marketplace_products_id_length CHECK (length(product_id) BETWEEN 1 AND 40)
      )`);
    await q.query(`CREATE INDEX marketplace_products_card_idx ON marketplace_products (card_uuid)`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON marketplace_products TO tcg_importer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE marketplace_products`);
  }
}
