import { DataSource } from 'typeorm';
import { tinyCatalogue, truncateAll, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { migrate } from '../db/data-source';
import { PriceIngestRepository } from '../prices';

const DAY = 86_400;
const T0 = Date.UTC(2026, 0, 1) / 1000;

/** What the writers render: each variant's heads, each series' parts, each card's documents. */
async function rendered(ds: DataSource): Promise<unknown[][]> {
  return [
    await ds.query(`SELECT uuid, v1_head, v2_head FROM variants ORDER BY uuid`),
    await ds.query(
      `SELECT variant_uuid, region, v1_stats, v1_history, v2_price, v2_periods, v2_history
       FROM variant_prices ORDER BY variant_uuid, region`,
    ),
    await ds.query(
      `SELECT card_uuid, v1_variants, v1_bare_variants, v2_variants FROM card_documents ORDER BY card_uuid`,
    ),
  ];
}

describe('the migrations that render stored data (PostgreSQL)', () => {
  let ds: DataSource;

  useTestDatabase((opened) => (ds = opened), { truncate: 'never', remigrate: true });

  it('render a catalogue stored before them exactly as the writers render it now', async () => {
    await truncateAll(ds);
    const cat = tinyCatalogue();
    await writeCatalogue(ds, cat);
    // 40 days in NA for two variants (past the 30 days the stored history covers), a day in JP.
    const days = Array.from({ length: 40 }, (_, d) => d);
    await new PriceIngestRepository(ds).ingest([
      ...cat.variants
        .slice(0, 2)
        .flatMap((v, i) =>
          days.map((d) => ({ variantUuid: v.uuid, region: 'NA', t: T0 + d * DAY, price: 1000 + 7 * d + i })),
        ),
      { variantUuid: cat.variants[0]!.uuid, region: 'JP', t: T0, price: 150 },
    ]);
    const byWriters = await rendered(ds);
    expect((byWriters[1] as unknown[]).length).toBe(3);

    // Back to the schema before them (the stored text is dropped), then forward again.
    const applied = async () =>
      (await ds.query(`SELECT 1 FROM typeorm_migrations WHERE name = 'RenderedSeries1764690000000'`)).length >
      0;
    while (await applied()) await ds.undoLastMigration({ transaction: 'each' });
    await expect(ds.query(`SELECT v1_head FROM variants`)).rejects.toThrow(/v1_head/);
    await migrate(ds);

    expect(await rendered(ds)).toEqual(byWriters);
  });
});
