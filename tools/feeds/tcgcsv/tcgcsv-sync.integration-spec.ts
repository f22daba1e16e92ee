import { uuidV5 } from '@tcg/domain';
import { PriceIngestRepository, refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { DataSource } from 'typeorm';
import { assembleCatalogue } from '../../loader/catalogue/build-catalogue';
import { FAB_GAME, fabDraftSets } from '../../loader/catalogue/fab-drafts';
import { syncFeeds, type SyncOptions } from '../sync';
import { FeedServer } from '../testing/feed-server';
import type { TcgcsvGameConfig } from './tcgcsv-games';

const FIXTURES = join(__dirname, '..', 'fixtures', 'tcgcsv');
const DAY1 = '2026-11-25';
const DAY2 = '2026-11-26';
const DAY3 = '2026-11-27';
const t = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** Flesh and Blood's Welcome to Rathe as the packaged catalogue has it. */
const wtr = assembleCatalogue([FAB_GAME], fabDraftSets(['WTR']));
const GAMES: TcgcsvGameConfig[] = [
  { category: 'Flesh & Blood TCG', game: 'flesh-and-blood', name: 'Flesh and Blood' },
  { category: 3, game: 'pokemon', name: 'Pokémon' },
];
/** The fixture's Flesh and Blood products the packaged catalogue already holds. */
const PACKAGED_PRODUCTS = ['225013', '225015', '225017'];

/** Every file of one day's dump, by its path under the day. */
async function dayFiles(day: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir)) {
      const path = join(dir, entry);
      if ((await stat(path)).isDirectory()) await walk(path);
      else files.set(relative(join(FIXTURES, day), path), await readFile(path));
    }
  };
  await walk(join(FIXTURES, day));
  return files;
}

describe('npm run feeds -- sync --feeds tcgcsv (TCGCSV dumps from a local server)', () => {
  let ds: DataSource;
  let server: FeedServer | undefined;
  let dir: string;

  useTestDatabase((opened) => (ds = opened));
  beforeEach(async () => {
    await writeCatalogue(ds, wtr);
    // The sample's simulated price on a card the dump prices: it goes.
    const heart = wtr.cards.find((c) => c.vendorId === '225013')!;
    const simulated = wtr.variants.find(
      (v) => v.cardUuid === heart.uuid && v.condition === 'Lightly Played',
    )!;
    await new PriceIngestRepository(ds).ingestSeries([
      { variantUuid: simulated.uuid, region: 'NA', source: 'simulated', t: [t(DAY1) - 86_400], p: [99_999] },
    ]);
    await refreshSummaries(ds);
    dir = await mkdtemp(join(tmpdir(), 'tcgcsv-sync-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** The day being served: the live sync's clock reads that evening. */
  let serving = DAY1;
  /** Serves `day`'s dump as TCGCSV does (`/tcgplayer/…`, `/last-updated.txt`); returns its base URL. */
  async function serve(day: string, busy: string[] = []): Promise<string> {
    serving = day;
    await server?.stop();
    server = new FeedServer();
    for (const [path, body] of await dayFiles(day)) server.file(`/tcgplayer/${path}`, body);
    server.file('/last-updated.txt', Buffer.from(`${day}T20:04:51+0000\n`));
    for (const path of busy) server.modes.set(path, 'busy-once');
    return server.start();
  }
  const options = (baseUrl: string, extra: Partial<SyncOptions> = {}): SyncOptions => ({
    feeds: ['tcgcsv'],
    dir,
    deadlines: { idleMs: 2_000, totalMs: 10_000 },
    tcgcsv: {
      games: GAMES,
      baseUrl,
      now: () => Date.parse(`${serving}T22:00:00Z`),
      politeness: { concurrency: 2, pauseMs: 0, retries: 2, maxRetryAfterMs: 5_000 },
    },
    ...extra,
  });
  const rows = <T>(sql: string, params: unknown[] = []) => ds.query(sql, params) as Promise<T[]>;
  const one = async <T>(sql: string, params: unknown[] = []) => (await rows<T>(sql, params))[0]!;
  /** A variant's NA series: its points and latest price, by card product id, printing and condition. */
  const series = (product: string, printing: string, condition = 'Near Mint') =>
    one<{ points: number | null; price: string | null; source: string | null; variants: number }>(
      `SELECT (SELECT sum(cardinality(s.prices)) FROM price_series s WHERE s.variant_uuid = v.uuid AND s.region = 'NA')::int AS points,
              vp.price, vp.source, (SELECT count(*) FROM variants w WHERE w.card_uuid = c.uuid AND w.printing = $2 AND w.language = 'English' AND w.condition IS NOT NULL)::int AS variants
       FROM cards c JOIN variants v ON v.card_uuid = c.uuid AND v.printing = $2 AND v.condition = $3 AND v.language = 'English'
       LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'
       WHERE c.vendor_id = $1`,
      [product, printing, condition],
    );
  const state = () =>
    one<Record<string, number>>(
      `SELECT (SELECT count(*) FROM cards)::int AS cards, (SELECT count(*) FROM variants)::int AS variants,
              (SELECT sum(cardinality(prices)) FROM price_series)::int AS observations,
              (SELECT version FROM data_version)::int AS version`,
    );

  it('makes games, sets and cards of the dump, keeps Flesh and Blood on its packaged cards, and prices NM', async () => {
    const report = await syncFeeds(ds, options(await serve(DAY1)));
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      [`62@${DAY1}`, 'imported'],
      [`3@${DAY1}`, 'imported'],
    ]);
    const [fab, pokemon] = report.files;
    // FaB: 5 products (3 packaged cards, the packaged booster pack by name, 1 new), 9 price rows of
    // which one is of a product nowhere in the catalogue, and one row of the wrong shape.
    expect(fab).toMatchObject({ rowsRead: 14, matched: 12, created: 1, unmatched: 2 });
    expect(fab!.reasons).toEqual({
      'a price of a product not in the catalogue': 1,
      'a row of the wrong shape': 1,
    });
    expect(pokemon).toMatchObject({ rowsRead: 10, matched: 6, created: 4, unmatched: 0, observations: 5 });

    // Every fixture product the packaged catalogue holds lands on its card, none twice.
    const packaged = await rows<{ id: string; vendor_id: string }>(
      `SELECT id, vendor_id FROM cards WHERE vendor_id = ANY($1) ORDER BY vendor_id`,
      [PACKAGED_PRODUCTS],
    );
    expect(packaged).toEqual(
      PACKAGED_PRODUCTS.map((p) => ({ id: wtr.cards.find((c) => c.vendorId === p)!.id, vendor_id: p })),
    );
    const booster = await rows<{ id: string; vendor_id: string }>(
      `SELECT id, vendor_id FROM cards WHERE name = 'Welcome to Rathe Booster Pack'`,
    );
    expect(booster).toEqual([
      { id: 'flesh-and-blood-welcome-to-rathe-welcome-to-rathe-booster-pack-sealed', vendor_id: '999001' },
    ]);
    expect(
      await one(
        `SELECT id, set_id, number, rarity FROM cards c JOIN (SELECT uuid AS su, id AS set_id FROM sets) s ON s.su = c.set_uuid WHERE vendor_id = '999002'`,
      ),
    ).toEqual({
      id: 'flesh-and-blood-welcome-to-rathe-rathe-times-promo-poster-promo',
      set_id: 'flesh-and-blood-welcome-to-rathe',
      number: 'WTR999',
      rarity: 'Promo',
    });

    // Multi-word printings become the card's printings; the NM variant has the market price.
    expect(await series('225013', '1st Edition Cold Foil')).toEqual({
      points: 1,
      price: '145000',
      source: 'tcgplayer',
      variants: 5,
    });
    expect(await series('225015', '1st Edition Rainbow Foil')).toMatchObject({ points: 1, price: '410' });
    // A printing without a recent sale: its variants, no price; the other conditions: no price.
    expect(await series('225015', 'Unlimited Edition Normal')).toEqual({
      points: null,
      price: null,
      source: null,
      variants: 5,
    });
    expect(await series('225013', '1st Edition Cold Foil', 'Lightly Played')).toMatchObject({
      points: null,
      price: null,
    });
    expect(await series('999001', 'Normal', 'Sealed')).toMatchObject({
      points: 1,
      price: '8999',
      variants: 1,
    });
    // The simulated series of a card the dump prices is gone.
    expect(await one(`SELECT count(*)::int AS n FROM variant_prices WHERE source = 'simulated'`)).toEqual({
      n: 0,
    });

    // Pokémon: a new game, its groups as sets, products as cards (sealed where the product says so).
    expect(await rows(`SELECT id, name FROM games ORDER BY id`)).toEqual([
      { id: 'flesh-and-blood', name: 'Flesh and Blood' },
      { id: 'pokemon', name: 'Pokémon' },
    ]);
    expect(
      await rows(
        `SELECT id, code, name, to_char(release_date, 'YYYY-MM-DD') AS released FROM sets WHERE game_id = 'pokemon' ORDER BY id`,
      ),
    ).toEqual([
      {
        id: 'pokemon-swsh11-lost-origin',
        code: 'SWSH11',
        name: 'SWSH11: Lost Origin',
        released: '2022-09-09',
      },
      {
        id: 'pokemon-swsh12-silver-tempest',
        code: 'SWSH12',
        name: 'SWSH12: Silver Tempest',
        released: '2022-11-11',
      },
    ]);
    expect(
      await rows(
        `SELECT name, number, rarity, sealed FROM cards WHERE game_id = 'pokemon' ORDER BY vendor_id`,
      ),
    ).toEqual([
      { name: 'Giratina VSTAR', number: '131/196', rarity: 'Ultra Rare', sealed: false },
      { name: 'Pikachu', number: '049/195', rarity: 'Common', sealed: false },
      { name: 'Lugia VSTAR', number: '139/195', rarity: 'Ultra Rare', sealed: false },
      { name: 'Silver Tempest Booster Box', number: null, rarity: 'Sealed', sealed: true },
    ]);
    expect(await series('451101', 'Reverse Holofoil')).toMatchObject({ points: 1, price: '45', variants: 5 });
    expect(await series('451101', 'Holofoil')).toMatchObject({ points: null, price: null, variants: 5 });
    expect(await series('451500', 'Normal', 'Sealed')).toMatchObject({ points: 1, price: '14500' });
  });

  it('rests after each group it writes, for the given multiple of its time, and not after one it skips', async () => {
    const base = await serve(DAY1);
    const rests: { ms: number; most: number }[] = [];
    // A group's write took at most the time since the last rest ended (or the sync began).
    let since = performance.now();
    const sleep = async (ms: number) => {
      rests.push({ ms, most: 2 * (performance.now() - since) });
      since = performance.now();
    };
    // Flesh and Blood's one group and Pokémon's two.
    expect((await syncFeeds(ds, options(base, { restRatio: 2, sleep }))).ok).toBe(true);
    expect(rests).toHaveLength(3);
    for (const { ms, most } of rests) {
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThanOrEqual(most);
    }
    // The same day again: every group done, none written.
    expect((await syncFeeds(ds, options(base, { restRatio: 2, sleep }))).ok).toBe(true);
    expect(rests).toHaveLength(3);
  });

  it('adds one point per priced variant a day, writes nothing for a day it has, and keeps a withdrawn category', async () => {
    await syncFeeds(ds, options(await serve(DAY1)));
    const day1 = await state();
    const second = await syncFeeds(ds, options(await serve(DAY2)));
    expect(second.ok).toBe(true);
    expect(second.files.map((f) => f.observations)).toEqual([7, 5]);
    const day2 = await state();
    expect(day2.observations - day1.observations).toBe(12);
    expect(day2.cards).toBe(day1.cards);
    expect(await series('451396', 'Holofoil')).toMatchObject({ points: 2, price: '1300' });
    expect(await series('225015', '1st Edition Normal')).toMatchObject({ points: 2, price: '55' });

    // The same day again, even from a fresh folder (no progress kept): nothing is written.
    await rm(dir, { recursive: true, force: true });
    const again = await syncFeeds(ds, options(await serve(DAY2)));
    expect(again.ok).toBe(true);
    expect(await state()).toEqual(day2);

    // A day whose listing no longer has Pokémon: reported, its game and prices kept; FaB goes on.
    const third = await syncFeeds(ds, options(await serve(DAY3)));
    expect(third.files.map((f) => [f.file, f.status])).toEqual([
      [`62@${DAY3}`, 'imported'],
      [`3@${DAY3}`, 'failed'],
    ]);
    expect(third.files[1]!.error).toMatch(
      /category 3 is not listed on 2026-11-27: its game and data are kept/,
    );
    expect(await series('451396', 'Holofoil')).toMatchObject({ points: 2, price: '1300' });
    expect(await series('225015', '1st Edition Normal')).toMatchObject({ points: 3 });
    // The id crosswalk: each day's dump says the packaged card is product 225015, from the first
    // day it was read to the last (the days the dumps are of, not the day the test runs).
    expect(
      await rows(
        `SELECT c.vendor_id, a.feed, to_char(a.first_seen, 'YYYY-MM-DD') AS first,
                to_char(a.last_seen, 'YYYY-MM-DD') AS last
         FROM card_id_assertions a JOIN cards c ON c.uuid = a.card_uuid
         WHERE a.kind = 'tcgplayer_product' AND a.value = '225015' AND a.feed IS NOT NULL`,
      ),
    ).toEqual([{ vendor_id: '225015', feed: 'tcgcsv', first: DAY1, last: DAY3 }]);
  });

  it('waits as a 429 asks; a group that fails is reported and, alone, tried again next time', async () => {
    const prices = '/tcgplayer/3/3170/prices';
    const report = await syncFeeds(ds, options(await serve(DAY1, [prices])));
    expect(report.ok).toBe(true);
    const asked = server!.requests.filter((r) => r.path === prices);
    expect(asked.map((r) => r.status)).toEqual([429, 200]);
    // Retry-After: 2, not the 1 s a retry waits without one.
    expect(asked[1]!.at - asked[0]!.at).toBeGreaterThanOrEqual(2_000);
    expect(asked.every((r) => /^tcg-pricing-feeds\/1 /.test(String(r.headers['user-agent'])))).toBe(true);

    // Day 2 with one of Pokémon's groups broken: reported, the others written and recorded as done;
    // the next sync asks for that group alone.
    let base = await serve(DAY2);
    server!.file('/tcgplayer/3/3118/prices', Buffer.from('{"success": true, "errors": [], "results": [oops'));
    const cut = await syncFeeds(ds, options(base));
    expect(cut.files.map((f) => [f.file, f.status])).toEqual([
      [`62@${DAY2}`, 'imported'],
      [`3@${DAY2}`, 'failed'],
    ]);
    expect(cut.files[1]!.error).toMatch(/^1 group\(s\) not synced, first group 3118: .*not JSON/);
    expect(cut.files[1]!.details).toMatchObject({ groups: 1, groupsFailed: 1 });
    expect(await series('283001', 'Holofoil')).toMatchObject({ points: 1 });
    base = await serve(DAY2);
    const resumed = await syncFeeds(ds, options(base));
    expect(resumed.ok).toBe(true);
    expect(resumed.files.map((f) => f.details)).toEqual([
      expect.objectContaining({ groups: 0, resumed: 1 }),
      expect.objectContaining({ groups: 1, resumed: 1 }),
    ]);
    const groupsAsked = new Set(
      server!.requests.map((r) => /^\/tcgplayer\/\d+\/(\d+)\//.exec(r.path)?.[1]).filter(Boolean),
    );
    expect([...groupsAsked]).toEqual(['3118']);
    expect(await series('283001', 'Holofoil')).toMatchObject({ points: 2 });
  });

  it('prices both Flesh and Blood editions on the one packaged card when TCGplayer lists them as two products', async () => {
    const editions = join(__dirname, '..', 'fixtures', 'tcgcsv-editions');
    const o = options('http://127.0.0.1:9', { from: editions });
    const report = await syncFeeds(ds, { ...o, tcgcsv: { ...o.tcgcsv!, games: [GAMES[0]!] } });
    expect(report.files.map((f) => [f.file, f.status])).toEqual([['62@2026-11-28', 'imported']]);
    expect(report.files[0]).toMatchObject({
      created: 0,
      unmatched: 0,
      details: expect.objectContaining({ editionsMerged: 1, setsCreated: 0 }),
    });
    expect(await rows(`SELECT id, vendor_id FROM cards WHERE name = 'Rhinar, Reckless Rampage'`)).toEqual([
      { id: wtr.cards.find((c) => c.vendorId === '225218')!.id, vendor_id: '225218' },
    ]);
    expect(await series('225218', '1st Edition Normal')).toMatchObject({
      points: 1,
      price: '400',
      source: 'tcgplayer',
    });
    expect(await series('225218', 'Unlimited Edition Normal')).toMatchObject({
      points: 1,
      price: '150',
      source: 'tcgplayer',
    });
  });

  describe('every category TCGCSV lists (the default, TCGCSV_GAMES unset)', () => {
    const every = (from: string) => {
      const o = options('http://127.0.0.1:9', { from });
      return { ...o, tcgcsv: { ...o.tcgcsv!, games: 'every' as const } };
    };

    it('syncs each listed category but the excluded ones; a new game keeps its first slug when renamed', async () => {
      const report = await syncFeeds(ds, every(join(__dirname, '..', 'fixtures', 'tcgcsv-every')));
      // Magic (MTGJSON's), Supplies and Marvel Comics are left out; no run is recorded for them.
      expect(report.files.map((f) => [f.file, f.status, f.details?.['game']])).toEqual([
        ['62@2026-11-29', 'imported', 'flesh-and-blood'],
        ['86@2026-11-29', 'imported', 'gundam-card-game'],
        ['62@2026-11-30', 'imported', 'flesh-and-blood'],
        // Renamed "Gundam TCG": the game that holds its products, not a second one.
        ['86@2026-11-30', 'imported', 'gundam-card-game'],
      ]);
      expect(await rows(`SELECT id, name FROM games ORDER BY id`)).toEqual([
        { id: 'flesh-and-blood', name: 'Flesh and Blood' },
        { id: 'gundam-card-game', name: 'Gundam Card Game' },
      ]);
      expect(await series('990001', 'Normal')).toMatchObject({ points: 2, price: '80' });
      expect(await series('225218', '1st Edition Normal')).toMatchObject({ points: 2, price: '425' });
    });

    it("takes an archive's categories whose game holds their products, and leaves the others", async () => {
      // A Magic card (MTGJSON's) with a product id of category 3: Magic stays excluded in an archive.
      const set = {
        uuid: uuidV5('set:magic-the-gathering-test'),
        id: 'magic-the-gathering-test',
        gameId: 'magic-the-gathering',
        name: 'Test',
        code: 'TST',
        releaseDate: null,
      };
      const id = 'magic-the-gathering-test-lugia-rare';
      await writeCatalogue(ds, {
        games: [{ id: 'magic-the-gathering', name: 'Magic: The Gathering' }],
        sets: [set],
        cards: [
          {
            uuid: uuidV5(id),
            id,
            gameId: set.gameId,
            setId: set.id,
            name: 'Lugia',
            number: '1',
            rarity: 'Rare',
            details: null,
            vendorId: '451396',
            opensetId: null,
            imagedbId: null,
            sealed: false,
          },
        ],
        variants: [],
      });
      const report = await syncFeeds(ds, every(join(FIXTURES, 'archives', `prices-${DAY1}.ppmd.7z`)));
      // Pokémon (3) has no game yet and an archive has no names: nothing to place its prices on.
      expect(report.files.map((f) => [f.file, f.status, f.details?.['game']])).toEqual([
        [`62@${DAY1}`, 'imported', 'flesh-and-blood'],
      ]);
      expect(await series('225013', '1st Edition Cold Foil')).toMatchObject({ points: 1, price: '145000' });
      expect(await rows(`SELECT id FROM games ORDER BY id`)).toEqual([
        { id: 'flesh-and-blood' },
        { id: 'magic-the-gathering' },
      ]);
      // Nothing of category 3 was written onto the Magic card.
      expect(
        await one(
          `SELECT count(*)::int AS n FROM variants v JOIN cards c ON c.uuid = v.card_uuid WHERE c.vendor_id = '451396'`,
        ),
      ).toEqual({ n: 0 });
    });
  });

  describe("TCGCSV's archive files (--from prices-YYYY-MM-DD.ppmd.7z: prices alone)", () => {
    const ARCHIVES = join(FIXTURES, 'archives');
    // An archive has no category listing: categories are configured by id.
    const byId: TcgcsvGameConfig[] = [
      { category: 62, game: 'flesh-and-blood', name: 'Flesh and Blood' },
      { category: 3, game: 'pokemon', name: 'Pokémon' },
    ];
    const fromArchives = (from: string, games = byId) => {
      const o = options('http://127.0.0.1:9', { from });
      return { ...o, tcgcsv: { ...o.tcgcsv!, games } };
    };

    it('prices the cards the catalogue holds by product id, and makes no game of a category it cannot place', async () => {
      const before = await state();
      const report = await syncFeeds(ds, fromArchives(join(ARCHIVES, `prices-${DAY1}.ppmd.7z`)));
      expect(report.files.map((f) => [f.file, f.status])).toEqual([
        [`62@${DAY1}`, 'imported'],
        [`3@${DAY1}`, 'imported'],
      ]);
      const [fab, pokemon] = report.files;
      // The packaged cards' prices land as they do from the live dump; without products, the
      // booster pack (999001), the promo (999002) and the product nowhere (999999) are unmatched.
      expect(await series('225013', '1st Edition Cold Foil')).toMatchObject({ points: 1, price: '145000' });
      expect(await series('225015', '1st Edition Rainbow Foil')).toMatchObject({ points: 1, price: '410' });
      expect(fab).toMatchObject({ created: 0, unmatched: 4 });
      expect(fab!.reasons).toEqual({
        'a price of a product not in the catalogue': 3,
        'a row of the wrong shape': 1,
      });
      // Pokémon: every price is of a product no card holds: no game, no card, nothing written.
      expect(pokemon).toMatchObject({ rowsRead: 6, matched: 0, created: 0, unmatched: 6, observations: 0 });
      expect(await rows(`SELECT id FROM games ORDER BY id`)).toEqual([{ id: 'flesh-and-blood' }]);
      const after = await state();
      expect(after.cards).toBe(before.cards);

      // Pokémon alone: the data version does not move.
      const pokemonOnly = await syncFeeds(
        ds,
        fromArchives(join(ARCHIVES, `prices-${DAY2}.ppmd.7z`), [byId[1]!]),
      );
      expect(pokemonOnly.files.map((f) => [f.file, f.status, f.observations])).toEqual([
        [`3@${DAY2}`, 'imported', 0],
      ]);
      expect(await state()).toEqual(after);
    });

    it('back-fills a folder of archive files in date order into one unmatched list, each row with its day', async () => {
      const report = await syncFeeds(ds, fromArchives(ARCHIVES, [byId[0]!]));
      expect(report.files.map((f) => [f.file, f.status])).toEqual([
        [`62@${DAY1}`, 'imported'],
        [`62@${DAY2}`, 'imported'],
      ]);
      expect(await series('225015', '1st Edition Normal')).toMatchObject({ points: 2, price: '55' });
      const lines = (await readFile(join(dir, 'unmatched-tcgcsv-62.ndjson'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { day?: string; reason: string; productId?: unknown });
      const perDay = (day: string) => lines.filter((l) => l.day === day).length;
      expect([perDay(DAY1), perDay(DAY2)]).toEqual(report.files.map((f) => f.unmatched));
      expect(lines).toHaveLength(perDay(DAY1) + perDay(DAY2));
      expect(lines[0]).toMatchObject({ reason: 'a row of the wrong shape', day: DAY1, groupId: 2061 });
      expect(lines.at(-1)).toMatchObject({
        reason: 'a price of a product not in the catalogue',
        day: DAY2,
        productId: 777777,
      });
      // The extraction's scratch folder is gone.
      expect((await readdir(dir)).filter((e) => e.startsWith('tcgcsv-archive-'))).toEqual([]);
    });

    it('reports an archive that is not one and goes on with the next day', async () => {
      const folder = join(dir, 'archives');
      await mkdir(folder);
      await writeFile(join(folder, `prices-${DAY1}.ppmd.7z`), 'not a 7z archive');
      await copyFile(join(ARCHIVES, `prices-${DAY2}.ppmd.7z`), join(folder, `prices-${DAY2}.ppmd.7z`));
      const report = await syncFeeds(ds, fromArchives(folder, [byId[0]!]));
      expect(report.files.map((f) => [f.file, f.status])).toEqual([
        [`prices-${DAY1}.ppmd.7z`, 'failed'],
        [`62@${DAY2}`, 'imported'],
      ]);
      expect(report.files[0]!.error).toMatch(/not a 7z archive that reads/);
      expect(await series('225015', '1st Edition Normal')).toMatchObject({ points: 1, price: '55' });
    });
  });

  it('back-fills an archive of dated dumps in date order (--from), and again writes nothing', async () => {
    const report = await syncFeeds(ds, options('http://127.0.0.1:9', { from: FIXTURES }));
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      [`62@${DAY1}`, 'imported'],
      [`3@${DAY1}`, 'imported'],
      [`62@${DAY2}`, 'imported'],
      [`3@${DAY2}`, 'imported'],
      [`62@${DAY3}`, 'imported'],
      [`3@${DAY3}`, 'failed'],
    ]);
    expect(await series('225015', '1st Edition Normal')).toMatchObject({ points: 3 });
    expect(await series('451101', 'Reverse Holofoil')).toMatchObject({ points: 2, price: '50' });
    const filled = await state();
    await syncFeeds(ds, options('http://127.0.0.1:9', { from: FIXTURES }));
    expect(await state()).toEqual(filled);
  });

  it('skips a group whose same documents it applied in full, and applies one that changed', async () => {
    // A copy of the dumps, so that one price file can change between two back-fills.
    const from = join(dir, 'from');
    for (const day of [DAY1, DAY2])
      for (const [path, body] of await dayFiles(day)) {
        await mkdir(join(from, day, path, '..'), { recursive: true });
        await writeFile(join(from, day, path), body);
      }
    const first = await syncFeeds(ds, options('http://127.0.0.1:9', { from }));
    expect(first.files.every((f) => f.details?.['groupsSkipped'] === 0)).toBe(true);
    const filled = await state();
    const groupsOf = (r: typeof first) =>
      r.files.map((f) => [f.details?.['groups'], f.details?.['groupsSkipped']]);

    // Read again: every group skipped by its digest, its rows still counted as read, nothing written.
    const again = await syncFeeds(ds, options('http://127.0.0.1:9', { from }));
    expect(groupsOf(again)).toEqual(groupsOf(first).map(([groups]) => [groups, groups]));
    expect(again.files.map((f) => f.rowsRead)).toEqual(first.files.map((f) => f.rowsRead));
    expect(again.files.every((f) => f.observations === 0 && f.details?.['unchanged'] === 0)).toBe(true);
    expect(await state()).toEqual(filled);

    // --resync applies them all again, which writes nothing either.
    const base = options('http://127.0.0.1:9', { from });
    const resync = await syncFeeds(ds, { ...base, tcgcsv: { ...base.tcgcsv!, resync: true } });
    expect(resync.files.every((f) => f.details?.['groupsSkipped'] === 0)).toBe(true);
    expect(await state()).toEqual(filled);

    // Day 2's Pokémon group 3170 changes one price: that group alone is applied, the new price lands.
    const path = join(from, DAY2, '3', '3170', 'prices');
    const doc = JSON.parse(await readFile(path, 'utf8')) as { results: { marketPrice: number | null }[] };
    const row = doc.results.findIndex((r) => r.marketPrice !== null);
    doc.results[row]!.marketPrice = 777.77;
    await writeFile(path, JSON.stringify(doc));
    const changed = await syncFeeds(ds, options('http://127.0.0.1:9', { from }));
    const pokemon2 = changed.files.find((f) => f.file === `3@${DAY2}`)!;
    const groups = pokemon2.details?.['groups'] as number;
    expect(pokemon2.details).toMatchObject({ groupsSkipped: groups - 1 });
    expect(pokemon2.observations).toBe(1);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM variant_prices WHERE price = 77777`);
    expect(n).toBe(1);
  });
});
