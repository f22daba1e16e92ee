import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `feed_runs.samples`: beside each unmatched reason's count, the first few distinct values seen
 * under it (an unknown condition's spelling, say), so that an operator reading a run learns what
 * the feed wrote, not only how often the reader refused it (issue 36).
 */
export class FeedRunSamples1765700000000 implements MigrationInterface {
  name = 'FeedRunSamples1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE feed_runs ADD COLUMN samples jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE feed_runs DROP COLUMN samples`);
  }
}
