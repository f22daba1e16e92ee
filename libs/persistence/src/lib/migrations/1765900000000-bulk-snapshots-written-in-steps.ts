import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `bulk_snapshots.complete`: a generation now commits its parts as it writes them, so it holds no
 * transaction for the minutes a large game takes (issue 38). Its rows are inserted with `complete`
 * false, read by nobody, and set true, with their size and checksum, in one short transaction at
 * the end. A generation killed half-way leaves rows that stay unread and that the next one deletes.
 * Every file written before this is whole: the default is true (a change of the catalogue only).
 */
export class BulkSnapshotsWrittenInSteps1765900000000 implements MigrationInterface {
  name = 'BulkSnapshotsWrittenInSteps1765900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE bulk_snapshots ADD COLUMN complete boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Before this, a row was whole once visible: the unfinished ones go with the column.
    await q.query(`DELETE FROM bulk_snapshots WHERE NOT complete`);
    await q.query(`ALTER TABLE bulk_snapshots DROP COLUMN complete`);
  }
}
