import { MigrationInterface, QueryRunner } from 'typeorm';
import { renderStoredCardDocuments } from './card-batches';

/**
 * Each card's variants joined as a default request of each version sends them (the first two of
 * `CARD_DOCUMENTS` in `@tcg/rendering`), stored per card so that a default lookup, search page or
 * batch reads one text per card. The price ingest and the catalogue writer render a card's documents again in
 * the transaction that changes its variants or their series; this migration renders the stored
 * cards', in batches with progress lines. A card without a row is joined from its variants' parts.
 */
export class CardDocuments1764710000000 implements MigrationInterface {
  name = 'CardDocuments1764710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_documents (
        card_uuid uuid PRIMARY KEY REFERENCES cards (uuid) ON DELETE CASCADE,
        v1_variants text,
        v2_variants text
      )`);
    // The documents this table holds; a later migration adds and renders another.
    await renderStoredCardDocuments(q, ['v1_variants', 'v2_variants'], 'render card documents progress');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_documents`);
  }
}
