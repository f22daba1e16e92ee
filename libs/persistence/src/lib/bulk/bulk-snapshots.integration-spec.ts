import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { Client } from 'pg';
import { BULK_COLUMNS } from '@tcg/rendering';
import { DataSource } from 'typeorm';
import {
  BULK_NOW,
  nmPriceSteps,
  tinyCatalogue,
  useTestClient,
  useTestDatabase,
  workerDatabaseUrl,
} from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import type { Connection, QueryRow } from '../sql/run';
import {
  generateGameHistory,
  generateGameSnapshots,
  GenerationSuperseded,
  SNAPSHOTS_KEPT,
} from './bulk-generator';
import {
  dropExpiredArchives,
  dropUnfinishedSnapshots,
  gamesDueHistory,
  gamesToSnapshot,
  TypeOrmBulkSnapshotStore,
  withBulkLock,
} from './bulk-snapshot.repository';

const DAY = 86_400;
const T_NOW = BULK_NOW;
const GAME = 'test-game';

describe('bulk snapshots (PostgreSQL)', () => {
  let ds: DataSource;
  let client: Client;
  let store: TypeOrmBulkSnapshotStore;
  const cat = tinyCatalogue();
  const [nm, psa] = cat.variants;
  const nmSteps = nmPriceSteps(cat.cards[0]!, nm!);

  /** The stored file of a snapshot, joined from its parts. */
  const download = async (id: number, chunks: number) => {
    const parts: Uint8Array[] = [];
    for (let seq = 0; seq < chunks; seq++) parts.push((await store.readChunk(id, seq))!);
    return Buffer.concat(parts);
  };
  const ndjsonRows = async () => {
    const s = (await store.latest(GAME, 'ndjson.gz'))!;
    return gunzipSync(await download(s.id, s.chunks))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };

  useTestDatabase((opened) => (ds = opened));
  useTestClient((opened) => (client = opened));
  beforeAll(() => {
    store = new TypeOrmBulkSnapshotStore(ds);
  });
  beforeEach(async () => {
    await writeCatalogue(ds, cat);
    const ingest = new PriceIngestRepository(ds);
    // NA: 9.00 eight days back, 11.00 yesterday, 12.00 now; JP (yen, no minor unit): 1,500 now. The slab has no price.
    await ingest.ingest(nmSteps.prices);
    await ingest.ingest([{ variantUuid: nm!.uuid, region: 'JP', t: T_NOW, price: 1500 }]);
  });
  it('writes both formats from one read: rows per variant and region, in v1 units, the same in NDJSON and CSV', async () => {
    const result = await generateGameSnapshots(client, GAME);
    expect(result.rows).toBe(3);

    const listed = await store.listLatest();
    expect(listed.map((s) => [s.gameId, s.format, s.rows])).toEqual([
      [GAME, 'csv.gz', 3],
      [GAME, 'ndjson.gz', 3],
    ]);
    const version = Number((await ds.query('SELECT version FROM data_version'))[0].version);
    expect(listed.every((s) => s.dataVersion === version)).toBe(true);

    const rows = await ndjsonRows();
    expect(rows.map((r) => Object.keys(r))).toEqual(rows.map(() => BULK_COLUMNS));
    const [naRow, jpRow, slab] = rows;
    expect(naRow).toMatchObject({
      game: GAME,
      set: 'test-game-first-edition',
      set_name: 'First Edition',
      card_id: cat.cards[0]!.id,
      card_uuid: cat.cards[0]!.uuid,
      name: 'Test Dragon',
      number: '7',
      sealed: false,
      vendorId: '1007',
      variant_id: nm!.id,
      variant_uuid: nm!.uuid,
      type: 'raw',
      condition: 'Near Mint',
      printing: 'Normal',
      language: 'English',
      vendorSkuId: 'SKU-NM',
      grading_company: null,
      region: 'NA',
      currency: 'USD',
      price: 12,
      lastUpdated: T_NOW,
      priceChange24hr: 9.09,
      priceChange7d: 33.33,
      minPrice7d: 11,
      maxPrice7d: 12,
      minPriceAllTime: 9,
      maxPriceAllTimeDate: '2026-11-01',
    });
    expect(jpRow).toMatchObject({ variant_id: nm!.id, region: 'JP', currency: 'JPY', price: 1500 });
    expect(slab).toMatchObject({
      variant_id: psa!.id,
      type: 'graded',
      condition: null,
      grading_company: 'PSA',
      grade: 10,
      grade_canonical: 'PSA 10',
      region: null,
      price: null,
      avgPrice: null,
    });

    const csvSnapshot = listed.find((s) => s.format === 'csv.gz')!;
    const csv = parse(gunzipSync(await download(csvSnapshot.id, csvSnapshot.chunks)), {
      columns: true,
    }) as Record<string, string>[];
    const asCsv = (v: unknown) => (v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    expect(csv).toEqual(
      rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, asCsv(v)]))),
    );
  });

  it('lists each file with its exact size and SHA-256', async () => {
    await generateGameSnapshots(client, GAME);
    for (const s of await store.listLatest()) {
      const file = await download(s.id, s.chunks);
      expect(file.length).toBe(s.bytes);
      expect(createHash('sha256').update(file).digest('hex')).toBe(s.sha256);
    }
  });

  /** The snapshot rows by completeness, and the stored parts. */
  const stored = async () => {
    const [row] = await ds.query(
      `SELECT count(*) FILTER (WHERE complete)::int AS complete, count(*) FILTER (WHERE NOT complete)::int AS unfinished,
              (SELECT count(*)::int FROM bulk_chunks) AS parts
       FROM bulk_snapshots`,
    );
    return row as { complete: number; unfinished: number; parts: number };
  };
  const partsOf = async (ids: readonly number[]) =>
    Number((await ds.query('SELECT count(*) FROM bulk_chunks WHERE snapshot_id = ANY($1)', [ids]))[0].count);

  it.each([
    [
      'its connection killed',
      async (generator: Client, _abort: AbortController) => {
        await ds.query('SELECT pg_terminate_backend($1)', [
          (generator as unknown as { processID: number }).processID,
        ]);
      },
      // A kill leaves its unfinished rows (read by nobody) for the next generation to delete.
      { unfinished: 2 },
    ],
    [
      'aborted',
      async (_generator: Client, abort: AbortController) => abort.abort(new Error('stop')),
      { unfinished: 0 },
    ],
  ])('a generation %s midway leaves the previous snapshot listed and intact', async (_, stop, left) => {
    await generateGameSnapshots(client, GAME);
    const before = await store.listLatest();
    await new PriceIngestRepository(ds).ingest([
      { variantUuid: nm!.uuid, region: 'NA', t: T_NOW + DAY, price: 2000 },
    ]);

    const generator = new Client({ connectionString: workerDatabaseUrl() });
    generator.on('error', () => undefined);
    await generator.connect();
    const abort = new AbortController();
    try {
      await expect(
        generateGameSnapshots(generator, GAME, {
          signal: abort.signal,
          onPage: () => stop(generator, abort),
        }),
      ).rejects.toThrow();
    } finally {
      await generator.end().catch(() => undefined);
    }

    expect(await store.listLatest()).toEqual(before);
    expect(await store.latest(GAME, 'csv.gz')).toEqual(before.find((s) => s.format === 'csv.gz'));
    expect(await gamesToSnapshot(client, DAY)).toEqual([GAME]);
    expect(await stored()).toMatchObject({ complete: 2, unfinished: left.unfinished });
    for (const s of before) {
      const file = await download(s.id, s.chunks);
      expect(createHash('sha256').update(file).digest('hex')).toBe(s.sha256);
    }
    expect((await ndjsonRows())[0]).toMatchObject({ price: 12 });

    // The next generation (under the bulk lock) deletes what was left, parts included.
    expect(await dropUnfinishedSnapshots(client)).toBe(left.unfinished);
    expect(await stored()).toEqual({
      complete: 2,
      unfinished: 0,
      parts: await partsOf(before.map((s) => s.id)),
    });
    await generateGameSnapshots(client, GAME);
    expect((await ndjsonRows())[0]).toMatchObject({ price: 20 });
  });

  it('holds no transaction while it writes, and commits its rows unread as it goes', async () => {
    await generateGameSnapshots(client, GAME);
    const before = await store.listLatest();
    const seen: { inTransaction: boolean; unfinished: number; parts: number }[] = [];
    const pid = (client as unknown as { processID: number }).processID;
    await generateGameSnapshots(client, GAME, {
      onPage: async () => {
        const [activity] = await ds.query(
          'SELECT xact_start IS NOT NULL AS open FROM pg_stat_activity WHERE pid = $1',
          [pid],
        );
        const now = await stored();
        seen.push({ inTransaction: activity.open, unfinished: now.unfinished, parts: now.parts });
        // Another session reads the previous files meanwhile, never the ones being written.
        expect(await store.listLatest()).toEqual(before);
      },
    });
    // Its two rows committed (another session counts them), its session idle between statements.
    expect(seen).toEqual([{ inTransaction: false, unfinished: 2, parts: expect.any(Number) }]);
    expect((await store.listLatest()).map((s) => s.id)).not.toEqual(before.map((s) => s.id));
  });

  it('deletes a file the catalogue changed under, so no file mixes two data versions', async () => {
    await generateGameSnapshots(client, GAME);
    const before = await store.listLatest();
    const versionOf = async () => Number((await ds.query('SELECT version FROM data_version'))[0].version);
    const readAt = await versionOf();
    await expect(
      generateGameSnapshots(client, GAME, {
        onPage: async () => {
          await new PriceIngestRepository(ds).ingest([
            { variantUuid: nm!.uuid, region: 'NA', t: T_NOW + DAY, price: 2000 },
          ]);
        },
      }),
    ).rejects.toEqual(new GenerationSuperseded(readAt, readAt + 1));
    expect(await store.listLatest()).toEqual(before);
    expect(await stored()).toMatchObject({ complete: 2, unfinished: 0 });
    // The change makes the game due again, and the next generation writes the new price.
    expect(await gamesToSnapshot(client, DAY)).toEqual([GAME]);
    await generateGameSnapshots(client, GAME);
    expect((await ndjsonRows())[0]).toMatchObject({ price: 20 });
  });

  it('reads the catalogue where it is told to and writes its files on its own connection', async () => {
    const readTexts: string[] = [];
    const reads: Connection = {
      query: (config) => {
        readTexts.push(config.text);
        return ds
          .query(config.text, config.values)
          .then((rows: QueryRow[]) => ({ rows, rowCount: rows.length }));
      },
    };
    const result = await generateGameSnapshots(client, GAME, { reads });
    expect(result.rows).toBeGreaterThan(0);
    expect(readTexts.some((t) => t.includes('from "cards"'))).toBe(true);
    expect(readTexts.some((t) => t.includes('data_version'))).toBe(true);
    expect(readTexts.some((t) => /insert|update|delete/i.test(t))).toBe(false);
    expect((await ndjsonRows())[0]).toMatchObject({ price: 12 });
  });

  it(`keeps the newest ${SNAPSHOTS_KEPT} snapshots per game and format, deleting older ones with their parts`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      await generateGameSnapshots(client, GAME);
      ids.push((await store.latest(GAME, 'ndjson.gz'))!.id);
    }
    const kept = (await ds.query(
      `SELECT id::int AS id FROM bulk_snapshots WHERE format = 'ndjson.gz' ORDER BY id`,
    )) as {
      id: number;
    }[];
    expect(kept.map((r) => r.id)).toEqual(ids.slice(-SNAPSHOTS_KEPT));
    expect(await store.readChunk(ids[0]!, 0)).toBeNull();
    expect(await store.chunkSizes(ids[0]!)).toBeNull();
    // What a range is located by: each kept part's size, in order, adding up to the file.
    const latest = (await store.latest(GAME, 'ndjson.gz'))!;
    const sizes = (await store.chunkSizes(latest.id))!;
    expect(sizes).toHaveLength(latest.chunks);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(latest.bytes);
    expect(sizes).toEqual(
      await Promise.all(sizes.map(async (_, seq) => (await store.readChunk(latest.id, seq))!.length)),
    );
    expect(Number((await ds.query('SELECT count(DISTINCT snapshot_id) FROM bulk_chunks'))[0].count)).toBe(
      2 * SNAPSHOTS_KEPT,
    );
  });

  it('takes the newest snapshot by its number, also where the ids gain a digit', async () => {
    // Both formats take an id each generation: 98 and 99, then 100 and 101.
    await ds.query(`SELECT setval(pg_get_serial_sequence('bulk_snapshots', 'id'), 97)`);
    await generateGameSnapshots(client, GAME);
    await generateGameSnapshots(client, GAME);
    const newest = Number(
      (await ds.query(`SELECT max(id) AS id FROM bulk_snapshots WHERE format = 'ndjson.gz'`))[0].id,
    );
    expect(newest).toBeGreaterThanOrEqual(100);
    expect((await store.latest(GAME, 'ndjson.gz'))!.id).toBe(newest);
    expect((await store.listLatest()).find((s) => s.format === 'ndjson.gz')!.id).toBe(newest);
  });

  it('names the games whose snapshots are missing, behind the data version, or past their age', async () => {
    expect(await gamesToSnapshot(client, DAY)).toEqual([GAME]);
    await generateGameSnapshots(client, GAME);
    expect(await gamesToSnapshot(client, DAY)).toEqual([]);
    await new PriceIngestRepository(ds).ingest([
      { variantUuid: nm!.uuid, region: 'NA', t: T_NOW + DAY, price: 2000 },
    ]);
    expect(await gamesToSnapshot(client, DAY)).toEqual([GAME]);
    await generateGameSnapshots(client, GAME);
    expect(await gamesToSnapshot(client, DAY)).toEqual([]);
    await ds.query(`UPDATE bulk_snapshots SET generated_at = now() - interval '25 hours'`);
    expect(await gamesToSnapshot(client, DAY)).toEqual([GAME]);
  });

  it("archives a day's first snapshots, never changes them, and drops those past the retention", async () => {
    const archive = (date: string) => ({ archive: { date, keepDays: 3 } });
    await generateGameSnapshots(client, GAME, archive('2026-11-01'));
    const first = await store.listArchives();
    expect(first.map((a) => [a.archiveDate, a.format, a.rows])).toEqual([
      ['2026-11-01', 'csv.gz', 3],
      ['2026-11-01', 'ndjson.gz', 3],
    ]);

    // Regenerated the same day (an import): the latest move on, the day's archive does not.
    await new PriceIngestRepository(ds).ingest([
      { variantUuid: nm!.uuid, region: 'NA', t: T_NOW + 3600, price: 1250 },
    ]);
    await generateGameSnapshots(client, GAME);
    expect(await store.listArchives()).toEqual(first);
    expect((await store.latest(GAME, 'csv.gz'))!.sha256).not.toBe(first[0]!.sha256);

    await new PriceIngestRepository(ds).ingest([
      { variantUuid: nm!.uuid, region: 'NA', t: T_NOW + DAY, price: 1300 },
    ]);
    await generateGameSnapshots(client, GAME, archive('2026-11-02'));
    const two = await store.listArchives();
    expect(two.filter((a) => a.archiveDate === '2026-11-01')).toEqual(first);
    const sha = (date: string, format: string) =>
      two.find((a) => a.archiveDate === date && a.format === format)!.sha256;
    for (const format of ['ndjson.gz', 'csv.gz'])
      expect(sha('2026-11-02', format)).not.toBe(sha('2026-11-01', format));
    expect(await store.archived('2026-11-01', GAME, 'csv.gz')).toEqual(first[0]);
    expect(await store.archived('2026-10-31', GAME, 'csv.gz')).toBeNull();

    // A new day is due for every game, even with fresh snapshots; with 3 days kept, the 4th's
    // archive drops the 1st's (the 4th, the 3rd and the 2nd are within).
    expect(await gamesToSnapshot(client, 3600, '2026-11-04')).toEqual([GAME]);
    expect(await gamesToSnapshot(client, 3600, '2026-11-02')).toEqual([]);
    await generateGameSnapshots(client, GAME, archive('2026-11-04'));
    expect([...new Set((await store.listArchives()).map((a) => a.archiveDate))]).toEqual([
      '2026-11-04',
      '2026-11-02',
    ]);
    // The sweep of every game's archives, a game removed since included.
    expect(await dropExpiredArchives(client, '2026-11-05', 3)).toBe(2);
    expect((await store.listArchives()).map((a) => a.archiveDate)).toEqual(['2026-11-04', '2026-11-04']);
  });

  it('writes the full history daily beside the latest snapshots, never archived', async () => {
    expect(await gamesDueHistory(client, DAY)).toEqual([GAME]);
    const result = await generateGameHistory(client, GAME);
    expect(result.lines).toBe(2); // the NM variant in NA and in JP; the slab has no series
    expect(await gamesDueHistory(client, DAY)).toEqual([]);
    const history = (await store.latest(GAME, 'history.ndjson.gz'))!;
    expect(history).toMatchObject({ format: 'history.ndjson.gz', archiveDate: null, rows: 2 });
    const file = await download(history.id, history.chunks);
    expect(createHash('sha256').update(file).digest('hex')).toBe(history.sha256);
    expect(
      gunzipSync(file)
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      nmSteps.historyLine,
      expect.objectContaining({ region: 'JP', currency: 'JPY', from: '2026-11-01', prices: [1500] }),
    ]);
    // Listed apart from the snapshots (GET /v1/bulk keeps its two formats).
    expect(await store.listLatest()).toEqual([]);
    expect(await store.listLatest(['history.ndjson.gz'])).toEqual([history]);
    await generateGameSnapshots(client, GAME, { archive: { date: '2026-11-01', keepDays: 3 } });
    expect((await store.listLatest()).map((s) => s.format)).toEqual(['csv.gz', 'ndjson.gz']);
    expect((await store.listArchives()).map((s) => s.format)).toEqual(['csv.gz', 'ndjson.gz']);
    await ds.query(`UPDATE bulk_snapshots SET generated_at = now() - interval '25 hours'`);
    expect(await gamesDueHistory(client, DAY)).toEqual([GAME]);
  });

  it('lists no snapshot of a game that is gone', async () => {
    await generateGameSnapshots(client, GAME);
    await ds.query('TRUNCATE price_series, variant_prices, variants, cards, sets, games CASCADE');
    expect(await store.listLatest()).toEqual([]);
  });

  it('lets one generator hold the lock at a time', async () => {
    const other = new Client({ connectionString: workerDatabaseUrl() });
    await other.connect();
    try {
      const inner = await withBulkLock(client, false, () => withBulkLock(other, false, async () => 'both'));
      expect(inner).toBeUndefined();
      expect(await withBulkLock(other, false, async () => 'alone')).toBe('alone');
    } finally {
      await other.end();
    }
  });
});
