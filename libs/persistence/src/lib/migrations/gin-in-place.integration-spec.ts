import { DataSource } from 'typeorm';
import { tinyCatalogue, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { refreshSummaries } from '../summaries';
import { CardNamesGinInPlace1765870000000 } from './1765870000000-card-names-gin-in-place';

/** Every GIN index of the schema, with whether it parks new entries in a pending list. */
async function ginIndexes(ds: DataSource): Promise<{ name: string; fastupdate: boolean }[]> {
  return (await ds.query(
    `SELECT i.relname AS name, NOT coalesce('fastupdate=off' = ANY(i.reloptions), false) AS fastupdate
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am a ON a.oid = i.relam
       JOIN pg_namespace n ON n.oid = i.relnamespace
       WHERE a.amname = 'gin' AND n.nspname = 'public' ORDER BY 1`,
  )) as { name: string; fastupdate: boolean }[];
}

/** Pages a GIN index had pending (merging them): 0 when every entry went into the index itself. */
async function pendingPages(ds: DataSource, index: string): Promise<number> {
  const [{ pages }] = (await ds.query(`SELECT gin_clean_pending_list($1::regclass)::int AS pages`, [
    index,
  ])) as { pages: number }[];
  return pages;
}

describe('GIN indexes updated in place (PostgreSQL)', () => {
  let ds: DataSource;
  useTestDatabase((opened) => (ds = opened));

  it('keeps no GIN index in fast-update mode, whose pending list every search would scan', async () => {
    const indexes = await ginIndexes(ds);
    expect(indexes.map((i) => i.name)).toEqual(
      expect.arrayContaining(['card_names_trgm_idx', 'cards_name_trgm_idx', 'sets_name_trgm_idx']),
    );
    expect(indexes.filter((i) => i.fastupdate)).toEqual([]);
  });

  it('leaves nothing pending in card_names’ index after a refresh that changes names', async () => {
    const cat = tinyCatalogue();
    await writeCatalogue(ds, cat);
    await refreshSummaries(ds);
    await ds.query(`UPDATE cards SET name = name || ' Renamed'`);
    await refreshSummaries(ds);

    expect(await pendingPages(ds, 'card_names_trgm_idx')).toBe(0);
    const [{ n }] = (await ds.query(`SELECT count(*)::int AS n FROM card_names WHERE folded % $1`, [
      `${cat.cards[0]!.name.toLowerCase()} renamed`,
    ])) as { n: number }[];
    expect(n).toBeGreaterThan(0);
  });

  it('undoes and redoes its migration', async () => {
    const runner = ds.createQueryRunner();
    try {
      await new CardNamesGinInPlace1765870000000().down(runner);
      expect((await ginIndexes(ds)).filter((i) => i.fastupdate).map((i) => i.name)).toEqual([
        'card_names_trgm_idx',
      ]);
    } finally {
      await new CardNamesGinInPlace1765870000000().up(runner);
      await runner.release();
    }
    expect((await ginIndexes(ds)).filter((i) => i.fastupdate)).toEqual([]);
  });
});
