import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every table whose rows a read answer is made of; the summaries are bumped by their refresh. */
const CATALOGUE_TABLES = ['games', 'sets', 'cards', 'variants', 'price_series', 'variant_prices'] as const;

/**
 * The data version: a number that grows with every committed write a read answer could see, in
 * commit order, announced on the `tcg_data_version` channel. Services key their response caches
 * on it and drop them when it moves.
 *
 * A BEFORE STATEMENT trigger on each catalogue table takes the next version once per transaction,
 * at the transaction's first catalogue write. The version row stays locked until the commit, so
 * writers take versions in commit order; and because the lock is taken before the statement
 * changes any row, a writer waiting for it holds no catalogue row another writer could need (no
 * deadlock). `pg_notify` is delivered at commit, never for a rolled-back write. Concurrent writers
 * therefore run one after the other from their first catalogue statement: the price of a version
 * every reader can compare.
 */
export class DataVersion1764670000000 implements MigrationInterface {
  name = 'DataVersion1764670000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE data_version (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        version  bigint NOT NULL
      )`);
    await q.query(`INSERT INTO data_version (version) VALUES (1)`);
    await q.query(`
      CREATE FUNCTION next_data_version() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        taken bigint;
      BEGIN
        taken := nullif(current_setting('tcg.data_version_taken', true), '')::bigint;
        IF taken IS NOT NULL THEN
          RETURN taken;
        END IF;
        UPDATE data_version SET version = version + 1 RETURNING version INTO taken;
        PERFORM pg_notify('tcg_data_version', taken::text);
        PERFORM set_config('tcg.data_version_taken', taken::text, true);
        RETURN taken;
      END $$`);
    await q.query(`
      CREATE FUNCTION take_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM next_data_version();
        RETURN NULL;
      END $$`);
    for (const table of CATALOGUE_TABLES) {
      await q.query(`
        CREATE TRIGGER ${table}_data_version
        BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION take_data_version()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of CATALOGUE_TABLES)
      await q.query(`DROP TRIGGER IF EXISTS ${table}_data_version ON ${table}`);
    await q.query(`DROP FUNCTION IF EXISTS take_data_version()`);
    await q.query(`DROP FUNCTION IF EXISTS next_data_version()`);
    await q.query(`DROP TABLE IF EXISTS data_version`);
  }
}
