import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `summary_marks.kind`: what a write changed, so that a refresh rebuilds only the views built on
 * it (issue 36, the marketplace's daily sync). `prices`: observations of series already stored,
 * nothing else — the values, tops and price sources move, while the name views and the facets
 * (which cards, variants and regions exist) do not. `all`: anything else (the catalogue, a new or
 * dropped series), every view. A mark of an older writer has the default, `all`.
 */
export class SummaryMarkKinds1765800000000 implements MigrationInterface {
  name = 'SummaryMarkKinds1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE summary_marks
        ADD COLUMN kind text NOT NULL DEFAULT 'all' CONSTRAINT summary_marks_kind_known CHECK (kind IN ('all', 'prices'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE summary_marks DROP COLUMN kind`);
  }
}
