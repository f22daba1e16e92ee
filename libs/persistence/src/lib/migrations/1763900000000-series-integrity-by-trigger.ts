import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A foreign key on `price_series` costs a per-row check on every month row written, which about
 * doubled the time of a bulk COPY. Month rows are
 * only ever written together with their `variant_prices` row, in the same transaction, and that
 * row keeps its foreign key to `variants`; so integrity holds with the key there and a trigger
 * that carries deletions from `variant_prices` (and so from `variants`) through to the month rows.
 */
export class SeriesIntegrityByTrigger1763900000000 implements MigrationInterface {
  name = 'SeriesIntegrityByTrigger1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE price_series DROP CONSTRAINT IF EXISTS price_series_variant_uuid_fkey`);
    await q.query(`
      CREATE FUNCTION price_series_follow_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM price_series WHERE variant_uuid = OLD.variant_uuid AND region = OLD.region;
        RETURN OLD;
      END $$`);
    await q.query(`
      CREATE TRIGGER variant_prices_delete_series AFTER DELETE ON variant_prices
      FOR EACH ROW EXECUTE FUNCTION price_series_follow_delete()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS variant_prices_delete_series ON variant_prices`);
    await q.query(`DROP FUNCTION IF EXISTS price_series_follow_delete()`);
    await q.query(
      `ALTER TABLE price_series ADD CONSTRAINT price_series_variant_uuid_fkey
       FOREIGN KEY (variant_uuid) REFERENCES variants (uuid) ON DELETE CASCADE`,
    );
  }
}
