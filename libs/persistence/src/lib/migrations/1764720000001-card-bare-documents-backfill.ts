import { MigrationInterface, QueryRunner } from 'typeorm';
import { renderStoredCardDocuments } from './card-batches';

/** Renders the stored cards' `v1_bare_variants` (see `CardBareDocuments1764720000000`), with progress lines. */
export class CardBareDocumentsBackfill1764720000001 implements MigrationInterface {
  name = 'CardBareDocumentsBackfill1764720000001';

  async up(q: QueryRunner): Promise<void> {
    await renderStoredCardDocuments(q, ['v1_bare_variants'], 'render bare card documents progress');
  }

  async down(): Promise<void> {
    // The column and its contents go with the previous migration's down.
  }
}
