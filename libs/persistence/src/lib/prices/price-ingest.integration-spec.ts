import { computeSeriesStats } from '@tcg/pricing-stats';
import { renderSeries } from '@tcg/rendering';
import { DataSource } from 'typeorm';
import { tinyCatalogue, truncateAll, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from './price-ingest.repository';

const DAY = 86_400;
const T0 = Date.UTC(2026, 0, 30) / 1000; // spans a month boundary below

describe('PriceIngestRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: PriceIngestRepository;
  const cat = tinyCatalogue();
  const nm = cat.variants[0]!.uuid;

  useTestDatabase((opened) => (ds = opened));
  beforeAll(() => {
    repo = new PriceIngestRepository(ds);
  });
  beforeEach(async () => {
    await writeCatalogue(ds, cat);
  });

  const obs = (days: number[], prices: number[]) =>
    days.map((d, i) => ({ variantUuid: nm, region: 'NA', t: T0 + d * DAY, price: prices[i]! }));

  it('stores observations in month rows and precomputes the statistics', async () => {
    const result = await repo.ingest(obs([0, 1, 2, 3], [1000, 1100, 1100, 1200]));
    expect(result).toEqual({
      observations: 4,
      inserted: 4,
      updated: 0,
      unchanged: 0,
      seriesRefreshed: 1,
      seriesReplaced: 0,
      refused: [],
    });

    const months = await ds.query(`SELECT month::text, offsets, prices FROM price_series ORDER BY month`);
    expect(months).toEqual([
      { month: '2026-01-01', offsets: [29 * DAY, 30 * DAY], prices: [1000, 1100] },
      { month: '2026-02-01', offsets: [0, DAY], prices: [1100, 1200] },
    ]);
    const [row] = await ds.query(
      `SELECT currency, price::int, updated_at::int, change_24h, stats FROM variant_prices`,
    );
    expect(row.currency).toBe('USD');
    expect(row.price).toBe(1200);
    expect(row.updated_at).toBe(T0 + 3 * DAY);
    expect(row.change_24h).toBeCloseTo(((1200 - 1100) / 1100) * 100, 10);
    expect(row.stats['7d'].avg).toBeCloseTo(1100, 10);
    expect(row.stats.allTime).toMatchObject({
      min: 1000,
      max: 1200,
      minDate: '2026-01-30',
      maxDate: '2026-02-02',
    });
  });

  it('renders the parts of default answers with the statistics, from the whole merged series', async () => {
    const rendered = async (region: string) =>
      (
        await ds.query(
          `SELECT v1_stats AS "v1Stats", v1_history AS "v1History", v2_price AS "v2Price",
                  v2_periods AS "v2Periods", v2_history AS "v2History"
           FROM variant_prices WHERE region = $1`,
          [region],
        )
      )[0];
    await repo.ingest(obs([0, 1, 2], [1000, 1100, 1100]));
    // A later batch adds to the series: the parts are rendered again from all of it.
    await repo.ingest([...obs([3, 10], [1200, 1300]), { variantUuid: nm, region: 'JP', t: T0, price: 150 }]);
    const t = [0, 1, 2, 3, 10].map((d) => T0 + d * DAY);
    const p = [1000, 1100, 1100, 1200, 1300];
    expect(await rendered('NA')).toEqual(
      renderSeries('NA', 'USD', computeSeriesStats(t, p), { t, p }, 'imported'),
    );
    // Seven days back from the latest observation (day 10): only days 4–10.
    expect(JSON.parse(`{${(await rendered('NA')).v1History}}`).priceHistory).toEqual([{ p: 13, t: t[4] }]);
    expect(await rendered('JP')).toEqual(
      renderSeries('JP', 'JPY', computeSeriesStats([T0], [150]), { t: [T0], p: [150] }, 'imported'),
    );
    expect((await rendered('JP')).v1Stats).toBeNull();
  });

  it('changes nothing when the same observations arrive twice, and applies corrections', async () => {
    await repo.ingest(obs([0, 1], [1000, 1100]));
    const before = await ds.query(`SELECT * FROM price_series ORDER BY month`);
    const again = await repo.ingest(obs([0, 1], [1000, 1100]));
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, seriesRefreshed: 0 });
    expect(await ds.query(`SELECT * FROM price_series ORDER BY month`)).toEqual(before);

    const corrected = await repo.ingest(obs([1, 2], [1150, 1300]));
    expect(corrected).toMatchObject({ inserted: 1, updated: 1, unchanged: 0 });
    const [row] = await ds.query(`SELECT price::int FROM variant_prices`);
    expect(row.price).toBe(1300);
  });

  it('writes the same rows whether or not a batch is expected new, and merges one that is not', async () => {
    const series = (days: number[], prices: number[]) => [
      {
        variantUuid: nm,
        region: 'NA',
        source: 'simulated' as const,
        t: days.map((d) => T0 + d * DAY),
        p: prices,
      },
    ];
    const stored = async () => ({
      months: await ds.query(`SELECT month::text, offsets, prices FROM price_series ORDER BY month`),
      stats: await ds.query(`SELECT * FROM variant_prices`),
    });
    await repo.ingestSeries(series([0, 1], [1000, 1100]));
    const plain = await stored();
    await truncateAll(ds);
    await writeCatalogue(ds, cat);
    await repo.ingestSeries(series([0, 1], [1000, 1100]), { expectNew: true });
    expect(await stored()).toEqual(plain);

    // Expected new but stored: encoded again against what is stored, nothing lost.
    const merged = await repo.ingestSeries(series([1, 2], [1150, 1300]), { expectNew: true });
    expect(merged).toMatchObject({ inserted: 1, updated: 1, unchanged: 0, seriesRefreshed: 1 });
    expect((await stored()).months).toEqual([
      { month: '2026-01-01', offsets: [29 * DAY, 30 * DAY], prices: [1000, 1150] },
      { month: '2026-02-01', offsets: [0], prices: [1300] },
    ]);
  });

  it('stores the price the 7-day change is measured from, and moves it as the series grows', async () => {
    const reference = async (region: string) =>
      (
        await ds.query(`SELECT price_7d_ref::int AS ref, change_7d FROM variant_prices WHERE region = $1`, [
          region,
        ])
      )[0] as { ref: number | null; change_7d: number | null };
    await repo.ingest([...obs([0, 1], [1000, 1100]), { variantUuid: nm, region: 'JP', t: T0, price: 150 }]);
    expect(await reference('NA')).toEqual({ ref: 1000, change_7d: 10 }); // the window's earliest
    expect(await reference('JP')).toEqual({ ref: null, change_7d: null }); // one point: none
    // Day 9: 7 days back is day 2, and the latest observation at or before it is day 1's (upserted).
    await repo.ingest(obs([9], [1320]));
    expect(await reference('NA')).toEqual({ ref: 1100, change_7d: 20 });
  });

  it('keeps one source per series: a real source replaces simulated observations, never mixes', async () => {
    const simulated = { variantUuid: nm, region: 'NA', t: [T0, T0 + DAY], p: [5000, 5100] };
    await repo.ingestSeries([{ ...simulated, source: 'simulated' }]);
    const real = await repo.ingestSeries([
      { variantUuid: nm, region: 'NA', source: 'tcgplayer', t: [T0 + 2 * DAY], p: [1234] },
    ]);
    expect(real).toMatchObject({ inserted: 1, seriesReplaced: 1 });
    const [row] = await ds.query(`SELECT source, price::int, v2_price FROM variant_prices`);
    expect(row).toMatchObject({ source: 'tcgplayer', price: 1234 });
    expect(JSON.parse(`{${row.v2_price}}`)).toMatchObject({ price: 12.34, source: 'tcgplayer' });
    const stored = await ds.query(`SELECT offsets, prices FROM price_series`);
    expect(stored).toEqual([{ offsets: [expect.any(Number)], prices: [1234] }]);
    // The same source adds to its series.
    const more = await repo.ingestSeries([
      { variantUuid: nm, region: 'NA', source: 'tcgplayer', t: [T0 + 3 * DAY], p: [1300] },
    ]);
    expect(more).toMatchObject({ inserted: 1, seriesReplaced: 0 });
    const [{ n }] = await ds.query(`SELECT sum(cardinality(prices))::int AS n FROM price_series`);
    expect(n).toBe(2);
    // Another real source never overwrites it: refused, nothing lost.
    const imported = await repo.ingest(obs([4], [9999]), 'imported');
    expect(imported).toMatchObject({
      inserted: 0,
      refused: [{ variantUuid: nm, region: 'NA', storedSource: 'tcgplayer' }],
    });
    const [after] = await ds.query(`SELECT source, price::int FROM variant_prices`);
    expect(after).toEqual({ source: 'tcgplayer', price: 1300 });
  });

  it('applies nothing of a batch that fails part-way', async () => {
    await repo.ingest(obs([0], [1000]));
    const unknownVariant = {
      variantUuid: '00000000-0000-5000-8000-000000000000',
      region: 'NA',
      t: T0,
      price: 5,
    };
    await expect(repo.ingest([...obs([1, 2], [1100, 1200]), unknownVariant])).rejects.toThrow();
    const [{ n }] = await ds.query(`SELECT sum(cardinality(offsets))::int AS n FROM price_series`);
    expect(n).toBe(1);
    const [row] = await ds.query(`SELECT price::int FROM variant_prices`);
    expect(row.price).toBe(1000);
  });

  it('removes a series with its variant: no month row outlives its statistics row', async () => {
    await repo.ingest(obs([0, 1, 2], [1000, 1100, 1200]));
    await ds.query(`DELETE FROM variants WHERE uuid = $1`, [nm]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM variant_prices`)).toEqual([{ n: 0 }]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM price_series`)).toEqual([{ n: 0 }]);
  });

  it('resolves vendor SKUs and variant UUIDs or slugs', async () => {
    expect(await repo.resolveVendorSkus(['SKU-NM', 'nope'])).toEqual(new Map([['SKU-NM', nm]]));
    const slug = cat.variants[0]!.id;
    expect(await repo.resolveVariantRefs([nm, slug, '00000000-0000-5000-8000-000000000000'])).toEqual(
      new Map([
        [nm, nm],
        [slug, nm],
      ]),
    );
  });
});
