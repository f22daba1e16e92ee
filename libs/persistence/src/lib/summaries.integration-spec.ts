import { uuidV5 } from '@tcg/domain';
import { DataSource } from 'typeorm';
import { testDataSource, tinyCatalogue, truncateAll } from '../testing';
import { writeCatalogue } from './catalogue-writer';
import { PriceIngestRepository } from './prices/price-ingest.repository';
import { refreshSummaries, refreshSummariesIfStale } from './summaries';

const marks = async (ds: DataSource) =>
  Number((await ds.query('SELECT count(*)::int AS n FROM summary_marks'))[0].n);
const cardValue = async (ds: DataSource) =>
  (await ds.query('SELECT price::int AS price FROM card_values'))[0]?.price as number | undefined;

describe('summary stale marks (PostgreSQL)', () => {
  let ds: DataSource;
  const cat = tinyCatalogue();
  const nm = cat.variants[0]!;
  const price = (t: number, p: number) =>
    new PriceIngestRepository(ds).ingest([{ variantUuid: nm.uuid, region: 'NA', t, price: p }]);

  beforeAll(async () => {
    ds = await testDataSource();
  });
  beforeEach(async () => {
    await truncateAll(ds);
  });
  afterAll(async () => {
    await ds.destroy();
  });

  it('a write that changes data leaves a mark in its own transaction; one that changes nothing does not', async () => {
    await writeCatalogue(ds, cat);
    expect(await marks(ds)).toBe(1);
    await refreshSummaries(ds);
    await writeCatalogue(ds, cat); // the same rows again
    expect(await marks(ds)).toBe(0);

    await price(1_700_000_000, 500);
    expect(await marks(ds)).toBe(1);
    expect(await cardValue(ds)).toBeUndefined(); // stale until refreshed
    await price(1_700_000_000, 500); // unchanged
    expect(await marks(ds)).toBe(1);
    expect(await refreshSummariesIfStale(ds)).toBe(true);
    expect(await cardValue(ds)).toBe(500);
    expect(await refreshSummariesIfStale(ds)).toBe(false);
  });

  it('a write moving stored prices alone refreshes the price views and leaves the name views', async () => {
    const kinds = async () =>
      ((await ds.query('SELECT kind FROM summary_marks ORDER BY id')) as { kind: string }[]).map(
        (r) => r.kind,
      );
    const names = async () =>
      ((await ds.query('SELECT name FROM card_names ORDER BY name')) as { name: string }[]).map(
        (r) => r.name,
      );
    await writeCatalogue(ds, cat);
    await price(1_700_000_000, 500); // a new series: which variants are priced changed
    expect(await kinds()).toEqual(['all', 'all']);
    await refreshSummariesIfStale(ds);
    const before = await names();

    // A card renamed behind the writers' back (no mark): only a refresh of every view shows it.
    await ds.query(`UPDATE cards SET name = 'Renamed Unmarked' WHERE uuid = $1`, [cat.cards[0]!.uuid]);
    await price(1_700_086_400, 700); // the stored series, a new day
    expect(await kinds()).toEqual(['prices']);
    expect(await refreshSummariesIfStale(ds)).toBe(true);
    expect(await cardValue(ds)).toBe(700);
    expect(await names()).toEqual(before);

    const added = { ...cat.cards[0]!, uuid: uuidV5('card:added'), id: 'test-game-added', name: 'Added Card' };
    await writeCatalogue(ds, { games: [], sets: cat.sets, cards: [added], variants: [] });
    expect(await kinds()).toEqual(['all']);
    await refreshSummariesIfStale(ds);
    expect(await names()).toEqual(expect.arrayContaining(['Added Card', 'Renamed Unmarked']));
  });

  it('a refresh clears only the marks it saw before it started', async () => {
    await writeCatalogue(ds, cat);
    await price(1_700_000_000, 500);
    // Hold the refresh at a view that reads sets, then commit another write, which does not read
    // sets (a price write reads cards since it renders their documents), while it waits.
    const blocker = ds.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query('LOCK TABLE sets IN ACCESS EXCLUSIVE MODE');
    const refreshing = refreshSummaries(ds);
    await waitUntil(async () => {
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%tcg_refresh_summary%'`,
      );
      return n > 0;
    });
    await price(1_700_086_400, 900);
    await blocker.commitTransaction();
    await blocker.release();
    await refreshing;

    // The refresh's snapshot may or may not have included the later write; its mark must survive
    // either way, so the next refresh is sure to.
    expect(await marks(ds)).toBe(1);
    expect(await refreshSummariesIfStale(ds)).toBe(true);
    expect(await cardValue(ds)).toBe(900);
    expect(await marks(ds)).toBe(0);
  });
});

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached within 10 s');
}
