import { DataSource } from 'typeorm';
import { tinyCatalogue, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { poolOf } from '../db/data-source';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries, refreshSummariesIfStale, SUMMARY_VIEWS } from './summaries';

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

  useTestDatabase((opened) => (ds = opened));

  it('a write that changes data leaves a mark in its own transaction; one that changes nothing does not', async () => {
    await writeCatalogue(ds, cat);
    expect(await marks(ds)).toBe(3); // the writer's, and the triggers' of new cards and variants
    await refreshSummaries(ds);
    await writeCatalogue(ds, cat); // the same rows again
    expect(await marks(ds)).toBe(0);

    await price(1_700_000_000, 500);
    expect(await marks(ds)).toBe(2); // the writer's, and the new series' trigger
    expect(await cardValue(ds)).toBeUndefined(); // stale until refreshed
    await price(1_700_000_000, 500); // unchanged
    expect(await marks(ds)).toBe(2);
    expect(await refreshSummariesIfStale(ds)).toBe(true);
    expect(await cardValue(ds)).toBe(500);
    expect(await refreshSummariesIfStale(ds)).toBe(false);
  });

  it('refreshes only the views a write left stale: prices, facets, or names too', async () => {
    const kinds = async () =>
      [
        ...new Set(
          ((await ds.query('SELECT kind FROM summary_marks')) as { kind: string }[]).map((r) => r.kind),
        ),
      ].sort();
    const refreshed = async () => {
      const spy = jest.spyOn(poolOf(ds), 'query');
      try {
        await refreshSummariesIfStale(ds);
        return (spy.mock.calls as unknown as [{ text: string; values: unknown[] }][])
          .filter(([q]) => q.text.includes('tcg_refresh_summary'))
          .map(([q]) => q.values[0]);
      } finally {
        spy.mockRestore();
      }
    };
    const names = async () =>
      ((await ds.query('SELECT name FROM card_names ORDER BY name')) as { name: string }[]).map(
        (r) => r.name,
      );
    const psa = cat.variants.find((v) => v.type === 'graded')!;

    await writeCatalogue(ds, cat);
    await price(1_700_000_000, 500); // a new series
    expect(await kinds()).toEqual(['all', 'facets', 'prices']);
    expect(await refreshed()).toEqual([...SUMMARY_VIEWS]);

    await price(1_700_086_400, 700); // the stored series, a new day
    expect(await kinds()).toEqual(['prices']);
    expect(await refreshed()).toEqual([
      'card_values',
      'set_summaries',
      'game_summaries',
      'card_tops',
      'game_price_sources',
    ]);
    expect(await cardValue(ds)).toBe(700);

    // A first price of another variant: which variants are priced changed, the names did not.
    await new PriceIngestRepository(ds).ingest([
      { variantUuid: psa.uuid, region: 'NA', t: 1_700_086_400, price: 9_000 },
    ]);
    expect(await kinds()).toEqual(['facets', 'prices']);
    expect(await refreshed()).not.toContain('card_names');

    // A card renamed by any writer, even one that leaves no mark of its own.
    await ds.query(`UPDATE cards SET name = 'Renamed' WHERE uuid = $1`, [cat.cards[0]!.uuid]);
    await ds.query(`UPDATE cards SET details = 'not read by any view' WHERE uuid = $1`, [cat.cards[0]!.uuid]);
    expect(await kinds()).toEqual(['all']);
    expect(await refreshed()).toEqual([...SUMMARY_VIEWS]);
    expect(await names()).toEqual(['Renamed']);
  });

  it('analyses the written tables before the refresh, as the importer role may', async () => {
    const reltuples = async () =>
      Number(
        (await ds.query(`SELECT reltuples FROM pg_class WHERE oid = 'variants'::regclass`))[0].reltuples,
      );
    await writeCatalogue(ds, cat);
    await ds.query(`DELETE FROM variants WHERE uuid = $1`, [cat.variants.at(-1)!.uuid]);
    await ds.query('ANALYZE variants');
    expect(await reltuples()).toBe(cat.variants.length - 1);
    await writeCatalogue(ds, cat); // the variant back: the statistics are behind
    expect(await reltuples()).toBe(cat.variants.length - 1);
    const runner = ds.createQueryRunner();
    try {
      await runner.query('SET ROLE tcg_importer');
      await runner.query('SELECT tcg_analyze_catalogue()');
      await runner.query('RESET ROLE');
    } finally {
      await runner.release();
    }
    expect(await reltuples()).toBe(cat.variants.length);
    await ds.query(`DELETE FROM variants WHERE uuid = $1`, [cat.variants.at(-1)!.uuid]);
    expect(await refreshSummariesIfStale(ds, { analyze: true })).toBe(true);
    expect(await reltuples()).toBe(cat.variants.length - 1);
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
