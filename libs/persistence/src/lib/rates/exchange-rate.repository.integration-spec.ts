import { DataSource } from 'typeorm';
import { useTestDatabase } from '../../testing';
import { readDataVersion } from '../db/data-version';
import { poolOf } from '../db/data-source';
import { FeedCatalogueRepository } from '../feeds';
import { PgExchangeRateRepository } from './exchange-rate.repository';

describe('PgExchangeRateRepository (exchange_rates on PostgreSQL)', () => {
  let ds: DataSource;
  let repo: PgExchangeRateRepository;
  useTestDatabase((opened) => {
    ds = opened;
    repo = new PgExchangeRateRepository(ds);
  });
  const version = () => readDataVersion(poolOf(ds));

  it('writes new rates once with their run, exactly, and a second write of the same changes nothing', async () => {
    const run = await new FeedCatalogueRepository(ds).startRun('ecb', 'eurofxref-daily.xml');
    const rates = [
      { day: '2025-05-09', currency: 'USD', rate: '1.1252' },
      { day: '2025-05-09', currency: 'GBP', rate: '0.84770' },
      { day: '2025-05-08', currency: 'USD', rate: '1.1330' },
    ];
    expect(await repo.stamp()).toBeNull();
    const before = await version();
    expect(await repo.upsert('ecb', run, rates)).toEqual({ written: 3, unchanged: 0 });
    const after = await version();
    expect(after).toBeGreaterThan(before);
    expect(
      await ds.query(
        `SELECT currency, day::text, rate::text, run_id::text FROM exchange_rates ORDER BY currency, day`,
      ),
    ).toEqual([
      { currency: 'GBP', day: '2025-05-09', rate: '0.84770', run_id: run },
      { currency: 'USD', day: '2025-05-08', rate: '1.1330', run_id: run },
      { currency: 'USD', day: '2025-05-09', rate: '1.1252', run_id: run },
    ]);
    // The same rates (a trailing zero less is the same number): no write, the same data version.
    const again = [...rates.slice(0, 1), { day: '2025-05-09', currency: 'GBP', rate: '0.8477' }, rates[2]!];
    expect(await repo.upsert('ecb', run, again)).toEqual({ written: 0, unchanged: 3 });
    expect(await version()).toBe(after);
    // A corrected rate is written, with the run that corrected it.
    const later = await new FeedCatalogueRepository(ds).startRun('ecb', 'eurofxref-hist-90d.xml');
    expect(await repo.upsert('ecb', later, [{ day: '2025-05-08', currency: 'USD', rate: '1.1331' }])).toEqual(
      {
        written: 1,
        unchanged: 0,
      },
    );
    expect(await version()).toBeGreaterThan(after);
    const table = await repo.table('ecb');
    expect(table.count).toBe(3);
    // Days since 1970-01-01: 2025-05-08 is day 20,216.
    expect(table.byCurrency.get('USD')).toEqual({ days: [20_216, 20_217], rates: ['1.1331', '1.1252'] });
    expect(await repo.stamp()).toBe(later);
    expect(
      await ds.query(`SELECT run_id::text FROM exchange_rates WHERE currency = 'USD' AND day = '2025-05-08'`),
    ).toEqual([{ run_id: later }]);
  });

  it('refuses what is not a rate', async () => {
    await expect(
      repo.upsert('ecb', null, [{ day: '2025-05-09', currency: 'USD', rate: '0' }]),
    ).rejects.toThrow(/exchange_rates_positive/);
    await expect(
      repo.upsert('ecb', null, [{ day: '2025-05-09', currency: 'EUR', rate: '1' }]),
    ).rejects.toThrow(/exchange_rates_iso_code/);
  });
});
