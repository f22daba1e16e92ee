import { DataSource, QueryRunner } from 'typeorm';
import { tinyCatalogue, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { SummariesRebuiltBeside1765850000000 } from '../migrations/1765850000000-summaries-rebuilt-beside';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries } from './summaries';

/** What a reader of a view sees of it, and what identifies the relation behind the name. */
async function view(ds: DataSource, name: string) {
  const [rel] = await ds.query(
    `SELECT c.oid::int AS oid, c.relacl::text AS acl,
            (SELECT array_agg(pg_get_indexdef(x.indexrelid) ORDER BY pg_get_indexdef(x.indexrelid)) FROM pg_index x WHERE x.indrelid = c.oid)
              AS indexes
     FROM pg_class c WHERE c.oid = $1::regclass`,
    [name],
  );
  const [{ leftovers }] = await ds.query(
    `SELECT count(*)::int AS leftovers FROM pg_class WHERE relname LIKE 'tcg\\_next\\_%'`,
  );
  return { ...(rel as { oid: number; acl: string; indexes: string[] }), leftovers: leftovers as number };
}

async function refreshAsImporter(ds: DataSource, name: string, attempts?: number): Promise<void> {
  const runner = ds.createQueryRunner();
  try {
    await runner.query('SET ROLE tcg_importer');
    if (attempts !== undefined) await runner.query(`SET tcg.summary_swap_attempts = ${attempts}`);
    await runner.query('SELECT tcg_refresh_summary($1)', [name]);
  } finally {
    await runner.query('RESET ROLE');
    await runner.query('RESET tcg.summary_swap_attempts');
    await runner.release();
  }
}

/** A transaction that has read `name`, holding it (ACCESS SHARE) until released. */
async function reading(ds: DataSource, name: string): Promise<QueryRunner> {
  const reader = ds.createQueryRunner();
  await reader.connect();
  await reader.startTransaction();
  await reader.query(`SELECT count(*) FROM ${name}`);
  return reader;
}

describe('summary refresh: rebuilt beside and swapped in (PostgreSQL)', () => {
  let ds: DataSource;
  const cat = tinyCatalogue();
  const nm = cat.variants[0]!;
  const topPrice = async () =>
    (
      await ds.query(
        `SELECT price::int AS price FROM card_tops WHERE card_uuid = $1 AND region = 'NA' AND scope = 'raw'`,
        [nm.cardUuid],
      )
    )[0]?.price as number | undefined;
  const price = (t: number, p: number) =>
    new PriceIngestRepository(ds).ingest([{ variantUuid: nm.uuid, region: 'NA', t, price: p }]);

  useTestDatabase((opened) => (ds = opened));

  beforeEach(async () => {
    await writeCatalogue(ds, cat);
    await price(1_700_000_000, 500);
    await refreshSummaries(ds);
  });

  it('replaces a view no other is built on, with its indexes and grants, as the importer may', async () => {
    const before = await view(ds, 'card_tops');
    await price(1_700_086_400, 700);
    await refreshAsImporter(ds, 'card_tops');

    expect(await topPrice()).toBe(700);
    const after = await view(ds, 'card_tops');
    expect(after.oid).not.toBe(before.oid);
    expect(after.indexes).toEqual(before.indexes);
    expect(after.acl).toBe(before.acl);
    expect(after.leftovers).toBe(0);
  });

  it('refreshes in place a view others are built on', async () => {
    const before = await view(ds, 'card_values');
    await price(1_700_086_400, 700);
    await refreshAsImporter(ds, 'card_values');

    expect((await ds.query(`SELECT price::int AS p FROM card_values`))[0].p).toBe(700);
    expect((await view(ds, 'card_values')).oid).toBe(before.oid);
  });

  it('waits for a reader of the view, then swaps', async () => {
    const before = await view(ds, 'card_tops');
    await price(1_700_086_400, 700);
    const reader = await reading(ds, 'card_tops');
    const refreshing = refreshAsImporter(ds, 'card_tops');
    try {
      await new Promise((r) => setTimeout(r, 600)); // several attempts while the reader holds it
      // The reader still sees the old rows, from the old view.
      expect(
        (await reader.query(`SELECT max(price)::int AS p FROM card_tops WHERE region = 'NA'`))[0].p,
      ).toBe(500);
    } finally {
      // Released whatever happened: a reader left open would hold the view for the next tests.
      await reader.commitTransaction();
      await reader.release();
      await refreshing;
    }

    expect(await topPrice()).toBe(700);
    expect((await view(ds, 'card_tops')).oid).not.toBe(before.oid);
  });

  it('refreshes in place when readers hold the view through every attempt', async () => {
    const before = await view(ds, 'card_tops');
    await price(1_700_086_400, 700);
    const reader = await reading(ds, 'card_tops');
    try {
      await refreshAsImporter(ds, 'card_tops', 2);
    } finally {
      await reader.commitTransaction();
      await reader.release();
    }

    expect(await topPrice()).toBe(700);
    const after = await view(ds, 'card_tops');
    expect(after.oid).toBe(before.oid);
    expect(after.leftovers).toBe(0);
  });

  it('refuses what is not a summary view', async () => {
    await expect(refreshAsImporter(ds, 'cards')).rejects.toThrow(/not a summary view: cards/);
  });

  it('undoes and redoes its migration: in place after down, swapped after up', async () => {
    const migration = new SummariesRebuiltBeside1765850000000();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      const before = await view(ds, 'card_tops');
      expect(before.indexes.some((i) => i.includes('WHERE'))).toBe(false);
      await price(1_700_086_400, 700);
      await refreshAsImporter(ds, 'card_tops');
      expect(await topPrice()).toBe(700);
      expect((await view(ds, 'card_tops')).oid).toBe(before.oid);

      await migration.up(runner);
      await price(1_700_172_800, 900);
      await refreshAsImporter(ds, 'card_tops');
      expect(await topPrice()).toBe(900);
      expect((await view(ds, 'card_tops')).oid).not.toBe(before.oid);
    } finally {
      await runner.release();
    }
  });
});
