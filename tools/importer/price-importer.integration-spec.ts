import { PriceIngestRepository, writeCatalogue } from '@tcg/persistence';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { tinyCatalogue, useTestDatabase } from '@tcg/persistence/testing';
import { PriceImporter } from './price-importer';
import { readRecords } from './read-records';

const NOW = Date.UTC(2026, 10, 1) / 1000;

describe('PriceImporter (PostgreSQL)', () => {
  let ds: DataSource;
  let dir: string;
  const cat = tinyCatalogue();
  const nm = cat.variants[0]!;

  useTestDatabase((opened) => (ds = opened));
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tcg-import-'));
  });
  beforeEach(async () => {
    await writeCatalogue(ds, cat);
  });

  const run = (file: string, format: 'ndjson' | 'csv', batchSize = 2) =>
    new PriceImporter(new PriceIngestRepository(ds)).run(readRecords(file, format), {
      batchSize,
      nowSeconds: NOW,
    });

  it('imports NDJSON, reports malformed rows by line, and changes nothing the second time', async () => {
    const file = join(dir, 'prices.ndjson');
    await writeFile(
      file,
      [
        JSON.stringify({
          variant_id: nm.uuid,
          region: 'NA',
          time: '2026-10-01T00:00:00Z',
          price: '10.50',
          currency: 'USD',
        }),
        JSON.stringify({
          vendor_sku: 'SKU-NM',
          region: 'us',
          time: Date.UTC(2026, 9, 2) / 1000,
          price: 11,
          currency: 'usd',
        }),
        '{not json',
        JSON.stringify({
          variant_id: nm.id,
          region: 'NA',
          time: '2026-10-03',
          price: '12.345',
          currency: 'USD',
        }),
        JSON.stringify({
          variant_id: nm.id,
          region: 'EU',
          time: '2026-10-03',
          price: '12.00',
          currency: 'USD',
        }),
        JSON.stringify({
          variant_id: 'no-such-variant',
          region: 'NA',
          time: '2026-10-03',
          price: '1',
          currency: 'USD',
        }),
        '',
        JSON.stringify({
          variant_id: nm.id,
          region: 'NA',
          time: '2026-10-04T00:00:00Z',
          price: '12',
          currency: 'USD',
        }),
      ].join('\n'),
    );
    const first = await run(file, 'ndjson');
    expect(first).toMatchObject({ lines: 8, applied: 3, rejected: 4, inserted: 3, updated: 0, unchanged: 0 });
    expect(first.rejectedRows).toEqual([
      { line: 3, reason: 'malformed JSON' },
      { line: 4, reason: "price '12.345' is not a non-negative decimal amount in USD" },
      { line: 5, reason: 'currency USD does not match region EU (EUR)' },
      { line: 6, reason: "unknown variant_id 'no-such-variant'" },
    ]);
    const [row] = await ds.query(
      `SELECT price::int, region, stats->'allTime' AS all_time FROM variant_prices`,
    );
    expect(row).toEqual({
      price: 1200,
      region: 'NA',
      all_time: { min: 1050, max: 1200, minDate: '2026-10-01', maxDate: '2026-10-04' },
    });

    const before = await ds.query('SELECT * FROM price_series');
    const second = await run(file, 'ndjson');
    expect(second).toMatchObject({ applied: 3, inserted: 0, updated: 0, unchanged: 3, seriesRefreshed: 0 });
    expect(await ds.query('SELECT * FROM price_series')).toEqual(before);
  });

  it('rests after each batch for the given multiple of its time, and not at all by default', async () => {
    const file = join(dir, 'rested.ndjson');
    const days = [1, 2, 3, 4, 5];
    await writeFile(
      file,
      days
        .map((d) =>
          JSON.stringify({
            variant_id: nm.uuid,
            region: 'NA',
            time: `2026-10-0${d}`,
            price: d,
            currency: 'USD',
          }),
        )
        .join('\n'),
    );
    const rests: number[] = [];
    const batchTimes: number[] = [];
    let batchStarted = performance.now();
    const report = await new PriceImporter(new PriceIngestRepository(ds)).run(readRecords(file, 'ndjson'), {
      batchSize: 2,
      nowSeconds: NOW,
      restRatio: 3,
      // Each batch's time as the importer sees it ends before onBatch; its rest comes right after.
      onBatch: () => batchTimes.push(performance.now() - batchStarted),
      sleep: async (ms) => {
        rests.push(ms);
        batchStarted = performance.now();
      },
    });
    expect(report).toMatchObject({ applied: 5, batches: 3 });
    expect(rests).toHaveLength(3);
    rests.forEach((ms, i) => {
      expect(ms).toBeGreaterThan(0);
      // Three times the batch (measured from just before its ingest, so a little less than ours).
      expect(ms).toBeLessThanOrEqual(3 * batchTimes[i]! + 1);
    });

    const none: number[] = [];
    await new PriceImporter(new PriceIngestRepository(ds)).run(readRecords(file, 'ndjson'), {
      batchSize: 2,
      nowSeconds: NOW,
      sleep: async (ms) => none.push(ms),
    });
    expect(none).toEqual([]);
  });

  it('imports CSV with quoted fields and reports short rows', async () => {
    const file = join(dir, 'prices.csv');
    await writeFile(
      file,
      [
        'variant_id,vendor_sku,region,time,price,currency',
        `${nm.uuid},,NA,2026-10-01T00:00:00Z,"7.25",USD`,
        `,SKU-NM,NA,1759363200,8,USD`,
        `${nm.uuid},,NA`,
        `${nm.uuid},SKU-NM,NA,1759363200,8,USD`,
        `${nm.uuid},,NA,2030-01-01,8,USD`,
      ].join('\n'),
    );
    const report = await run(file, 'csv');
    expect(report).toMatchObject({ applied: 2, rejected: 3 });
    expect(report.rejectedRows.map((r) => r.line)).toEqual([4, 5, 6]);
    expect(report.rejectedRows[1]!.reason).toBe('give only one of variant_id and vendor_sku');
    const [{ n }] = await ds.query('SELECT sum(cardinality(offsets))::int AS n FROM price_series');
    expect(n).toBe(2);
  });

  it("refuses, by line, rows for a series a feed writes: another source's history is never lost", async () => {
    await new PriceIngestRepository(ds).ingestSeries([
      { variantUuid: nm.uuid, region: 'NA', source: 'tcgplayer', t: [NOW - 86_400], p: [1234] },
    ]);
    const file = join(dir, 'over-feed.ndjson');
    const row = (region: string, currency: string) =>
      JSON.stringify({ variant_id: nm.uuid, region, time: NOW - 3600, price: '99.00', currency });
    await writeFile(file, `${row('NA', 'USD')}\n${row('EU', 'EUR')}\n`);
    const report = await run(file, 'ndjson');
    expect(report).toMatchObject({ applied: 1, rejected: 1 });
    expect(report.rejectedRows).toEqual([
      {
        line: 1,
        reason:
          "the variant's NA prices come from tcgplayer: an import does not overwrite another source's series",
      },
    ]);
    expect(await ds.query(`SELECT region, source, price::int FROM variant_prices ORDER BY region`)).toEqual([
      { region: 'EU', source: 'imported', price: 9900 },
      { region: 'NA', source: 'tcgplayer', price: 1234 },
    ]);
  });
});
