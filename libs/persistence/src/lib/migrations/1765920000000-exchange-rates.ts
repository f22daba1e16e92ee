import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `exchange_rates` (issue 40, item 3): dated reference rates, units of `currency` per one euro, as
 * their source published them (today only the ECB's daily euro foreign exchange reference rates,
 * `source = 'ecb'`), each with the feed run that wrote it. `numeric`, never a float: a rate is the
 * decimal text the ECB wrote (`0.84770`) and a conversion multiplies money by it.
 *
 * v2's `currency=` converts each market's price with the rate of its own day, so a rate that
 * arrives or changes changes answers: the table takes the data version like the catalogue's
 * tables (`take_data_version`, a statement trigger), and the feed only sends a write when a rate
 * is new or differs, so a sync of the same file leaves the version as it was. The rows go with
 * their run's `feed_runs` row only by `ON DELETE SET NULL`: a pruned run log keeps the rates.
 */
export class ExchangeRates1765920000000 implements MigrationInterface {
  name = 'ExchangeRates1765920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE exchange_rates (
        source   text NOT NULL,
        currency text NOT NULL,
        day      date NOT NULL,
        rate     numeric NOT NULL,
        run_id   bigint REFERENCES feed_runs (id) ON DELETE SET NULL,
        written_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (source, currency, day),
        CONSTRAINT exchange_rates_known_source CHECK (source IN ('ecb')),
        CONSTRAINT exchange_rates_iso_code CHECK (currency ~ '^[A-Z]{3}$' AND currency <> 'EUR'),
        CONSTRAINT exchange_rates_positive CHECK (rate > 0)
      )`);
    await q.query(`CREATE INDEX exchange_rates_run_idx ON exchange_rates (run_id)`);
    await q.query(`
      CREATE TRIGGER exchange_rates_data_version
      BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON exchange_rates
      FOR EACH STATEMENT EXECUTE FUNCTION take_data_version()`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON exchange_rates TO tcg_importer`);
    // api-v2 reads them to convert prices.
    await q.query(`GRANT SELECT ON exchange_rates TO tcg_reader`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE exchange_rates`);
  }
}
