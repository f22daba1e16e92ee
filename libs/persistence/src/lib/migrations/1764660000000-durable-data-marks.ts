import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Durable marks that let an interrupted write be finished by whoever comes next.
 *
 * `summary_marks`: a row per committed write that changed prices or the catalogue, inserted in the
 * write's own transaction, so "the summaries are stale" survives a kill between the write and the
 * refresh. A refresh deletes only the rows it saw before it started (see `refreshSummaries`).
 * One row per write rather than a shared counter, so concurrent writers never wait on each other.
 *
 * `sample_loads`: the sample catalogue load, written when it starts and completed only when its
 * last batch and refresh are done; a row left incomplete means the catalogue is partial.
 */
export class DurableDataMarks1764660000000 implements MigrationInterface {
  name = 'DurableDataMarks1764660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE summary_marks (
        id        bigserial PRIMARY KEY,
        marked_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE sample_loads (
        only_row     boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        size         text NOT NULL,
        started_at   timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    // A database that already holds a catalogue was loaded before loads were recorded: treat it
    // as complete rather than wiping it on the next start. Its summaries may predate its prices.
    await q.query(`
      INSERT INTO sample_loads (size, completed_at)
      SELECT 'unrecorded', now() WHERE EXISTS (SELECT 1 FROM cards)`);
    await q.query(`INSERT INTO summary_marks (marked_at) SELECT now() WHERE EXISTS (SELECT 1 FROM cards)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS sample_loads`);
    await q.query(`DROP TABLE IF EXISTS summary_marks`);
  }
}
