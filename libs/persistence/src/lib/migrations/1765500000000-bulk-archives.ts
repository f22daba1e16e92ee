import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dated archives of the bulk data (docs/bulk-data.md "Archives"): the first snapshot of a game
 * written on a UTC day is that day's archive (`archive_date`), kept for BULK_ARCHIVE_DAYS and never
 * rewritten; one per day, game and format, enforced by a unique index. And a third format, the
 * full history (`history.ndjson.gz`), kept as the latest snapshots are (never archived: each one
 * holds every day of the ones before).
 */
export class BulkArchives1765500000000 implements MigrationInterface {
  name = 'BulkArchives1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE bulk_snapshots ADD COLUMN archive_date date`);
    await q.query(`ALTER TABLE bulk_snapshots DROP CONSTRAINT bulk_snapshots_format_check`);
    await q.query(
      `ALTER TABLE bulk_snapshots ADD CONSTRAINT bulk_snapshots_format_check
       CHECK (format IN ('ndjson.gz', 'csv.gz', 'history.ndjson.gz'))`,
    );
    await q.query(
      `CREATE UNIQUE INDEX bulk_snapshots_archive_idx ON bulk_snapshots (archive_date, game_id, format)
       WHERE archive_date IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM bulk_snapshots WHERE format = 'history.ndjson.gz'`);
    await q.query(`DROP INDEX IF EXISTS bulk_snapshots_archive_idx`);
    await q.query(`ALTER TABLE bulk_snapshots DROP CONSTRAINT bulk_snapshots_format_check`);
    await q.query(
      `ALTER TABLE bulk_snapshots ADD CONSTRAINT bulk_snapshots_format_check CHECK (format IN ('ndjson.gz', 'csv.gz'))`,
    );
    await q.query(`ALTER TABLE bulk_snapshots DROP COLUMN archive_date`);
  }
}
