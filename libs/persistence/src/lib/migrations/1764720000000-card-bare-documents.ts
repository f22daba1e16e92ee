import { MigrationInterface, QueryRunner } from 'typeorm';
import { refreshCardDocuments } from '../prices/card-documents';
import { cardBatches } from './card-batches';
import { logMigrationProgress } from './progress';

/** Cards whose documents are rendered per statement of the backfill. */
const CARDS_PER_BATCH = 500;

/**
 * A third stored document per card: its v1 variants without history (`v1_bare_variants`), what a
 * batch (`POST /v1/cards`) and `include_price_history=false` send. Without it each card of a
 * 200-card batch was joined from its variants' parts per request. Rendered for the stored cards
 * in batches with progress lines; the writers render it with the others from then on.
 */
export class CardBareDocuments1764720000000 implements MigrationInterface {
  name = 'CardBareDocuments1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_documents ADD COLUMN v1_bare_variants text`);
    const [{ n: total }] = (await q.query(`SELECT count(*)::int AS n FROM cards`)) as { n: number }[];
    let done = 0;
    const started = Date.now();
    for await (const cards of cardBatches(q, CARDS_PER_BATCH)) {
      await refreshCardDocuments(q, cards, ['v1_bare_variants']);
      done += cards.length;
      logMigrationProgress('render bare card documents progress', done, total, started);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_documents DROP COLUMN v1_bare_variants`);
  }
}
