import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk snapshots (issue 11): per game and format, a gzip file stored in parts of about 1 MiB, in
 * PostgreSQL rather than on one instance's disk, so that every instance of api-v1 serves the same
 * files. A snapshot and all its parts are written in one transaction: it is listed and served
 * only once committed whole, and a generator killed midway leaves nothing behind (the server
 * rolls it back). Not catalogue tables: writing a snapshot takes no data version.
 */
export class BulkSnapshots1764730000000 implements MigrationInterface {
  name = 'BulkSnapshots1764730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE bulk_snapshots (
        id           bigserial PRIMARY KEY,
        game_id      text NOT NULL,
        format       text NOT NULL CHECK (format IN ('ndjson.gz', 'csv.gz')),
        data_version bigint NOT NULL,
        generated_at timestamptz NOT NULL,
        bytes        bigint NOT NULL,
        row_count    bigint NOT NULL,
        sha256       text NOT NULL,
        chunks       integer NOT NULL
      )`);
    await q.query(`CREATE INDEX bulk_snapshots_latest_idx ON bulk_snapshots (game_id, format, id DESC)`);
    await q.query(`
      CREATE TABLE bulk_chunks (
        snapshot_id bigint NOT NULL REFERENCES bulk_snapshots (id) ON DELETE CASCADE,
        seq         integer NOT NULL,
        data        bytea NOT NULL,
        PRIMARY KEY (snapshot_id, seq)
      )`);
    // The parts are gzip already: PostgreSQL's own compression would only cost CPU.
    await q.query(`ALTER TABLE bulk_chunks ALTER COLUMN data SET STORAGE EXTERNAL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS bulk_chunks`);
    await q.query(`DROP TABLE IF EXISTS bulk_snapshots`);
  }
}
