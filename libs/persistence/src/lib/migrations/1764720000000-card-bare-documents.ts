import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A third stored document per card: its v1 variants with every statistics window and no history
 * (`v1_bare_variants`), what `GET` and `POST /v1/cards` with `include_price_history=false` send.
 * Without it each card of a 200-card batch was joined from its variants' parts per request. The
 * column comes in a migration of its own, which commits at once: the next one fills it row by
 * row, so reads of `card_documents` are not held behind its lock meanwhile (a NULL document is
 * joined from the parts). The writers render it with the others from then on.
 */
export class CardBareDocuments1764720000000 implements MigrationInterface {
  name = 'CardBareDocuments1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_documents ADD COLUMN v1_bare_variants text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_documents DROP COLUMN v1_bare_variants`);
  }
}
