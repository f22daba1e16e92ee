import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `price_series_changes`: what was written to `price_series` at each data version, so that a
 * game's history file is built from the previous one rather than from every stored month (issue
 * 38: Magic's took minutes at `full`, rewritten whole each day). Statement triggers append, per
 * statement and series, the transaction's data version and the first month written; a deletion
 * appends the series with no month (read it whole again); a TRUNCATE appends one row with neither
 * series nor month (read every series whole again). Whoever writes is logged: an import, a feed,
 * the loader.
 *
 * A log beside the table, not a version column in it: a column would have to be indexed to be
 * found without reading every month row, and an indexed column written by every update would cost
 * the table its HOT updates. The log is read by series (its index) and pruned by version once
 * every game's newest history file is past it (`pruneSeriesChangesStatement`). Rows written
 * before this have no entry: history files of an earlier version are not built on (the one row
 * below says so).
 */
export class PriceSeriesChanges1765910000000 implements MigrationInterface {
  name = 'PriceSeriesChanges1765910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE price_series_changes (
        variant_uuid uuid,
        region       text,
        version      bigint NOT NULL,
        from_month   date,
        CONSTRAINT price_series_changes_whole_table CHECK ((variant_uuid IS NULL) = (region IS NULL))
      )`);
    await q.query(
      `CREATE INDEX price_series_changes_series_idx ON price_series_changes (variant_uuid, region, version)`,
    );
    await q.query(`CREATE INDEX price_series_changes_version_idx ON price_series_changes (version)`);
    // Every history file written before this: not built on, as if the table had been truncated.
    await q.query(`INSERT INTO price_series_changes (version) SELECT version FROM data_version`);

    // The statement triggers `price_series_data_version` have taken the version before any row.
    await q.query(`
      CREATE FUNCTION note_series_written() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        taken bigint := next_data_version();
      BEGIN
        INSERT INTO price_series_changes (variant_uuid, region, version, from_month)
        SELECT w.variant_uuid, w.region, taken, min(w.month) FROM written w GROUP BY w.variant_uuid, w.region;
        RETURN NULL;
      END $$`);
    for (const event of ['INSERT', 'UPDATE'])
      await q.query(`
        CREATE TRIGGER price_series_${event.toLowerCase()}_logged
        AFTER ${event} ON price_series REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION note_series_written()`);
    await q.query(`
      CREATE FUNCTION note_series_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        taken bigint := next_data_version();
      BEGIN
        INSERT INTO price_series_changes (variant_uuid, region, version)
        SELECT DISTINCT g.variant_uuid, g.region, taken FROM gone g;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER price_series_delete_logged
      AFTER DELETE ON price_series REFERENCING OLD TABLE AS gone
      FOR EACH STATEMENT EXECUTE FUNCTION note_series_deleted()`);
    await q.query(`
      CREATE FUNCTION note_series_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO price_series_changes (version) VALUES (next_data_version());
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER price_series_truncate_logged
      AFTER TRUNCATE ON price_series
      FOR EACH STATEMENT EXECUTE FUNCTION note_series_truncated()`);
    // The writers of price_series append; the bulk generation (api-v1's role) reads and prunes.
    await q.query(`GRANT SELECT, INSERT, DELETE ON price_series_changes TO tcg_importer`);
    await q.query(`GRANT SELECT, DELETE ON price_series_changes TO tcg_reader`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const trigger of ['insert', 'update', 'delete', 'truncate'])
      await q.query(`DROP TRIGGER IF EXISTS price_series_${trigger}_logged ON price_series`);
    for (const fn of ['note_series_written', 'note_series_deleted', 'note_series_truncated'])
      await q.query(`DROP FUNCTION IF EXISTS ${fn}()`);
    await q.query(`DROP TABLE IF EXISTS price_series_changes`);
  }
}
