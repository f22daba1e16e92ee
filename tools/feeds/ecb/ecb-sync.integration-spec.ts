import { readDataVersion, poolOf } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { syncFeeds, type SyncOptions } from '../sync';
import { FeedServer } from '../testing/feed-server';

const FIXTURES = join(__dirname, '..', 'fixtures', 'ecb');

describe('npm run feeds -- sync --feeds ecb (the polite client, a local server, real PostgreSQL)', () => {
  let ds: DataSource;
  let server: FeedServer;
  let base: string;
  let dir: string;
  const daily = '/stats/eurofxref/eurofxref-daily.xml';
  const hist90 = '/stats/eurofxref/eurofxref-hist-90d.xml';

  useTestDatabase((opened) => (ds = opened));
  beforeEach(async () => {
    server = new FeedServer()
      .file(daily, await readFile(join(FIXTURES, 'eurofxref-daily.xml')))
      .file(hist90, await readFile(join(FIXTURES, 'eurofxref-hist-90d.xml')));
    base = await server.start();
    dir = await mkdtemp(join(tmpdir(), 'ecb-sync-'));
  });
  afterEach(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const options = (files: ('daily' | '90d' | 'all')[]): SyncOptions => ({
    feeds: ['ecb'],
    dir,
    deadlines: { idleMs: 2_000, totalMs: 10_000 },
    ecb: {
      files,
      baseUrl: `${base}/stats/eurofxref`,
      politeness: { concurrency: 1, pauseMs: 0, retries: 1, maxRetryAfterMs: 5_000 },
    },
  });
  const rates = (where = 'true') =>
    ds.query(
      `SELECT e.currency, e.day::text, e.rate::text, r.file FROM exchange_rates e JOIN feed_runs r ON r.id = e.run_id
       WHERE ${where} ORDER BY e.day DESC, e.currency`,
    ) as Promise<{ currency: string; day: string; rate: string; file: string }[]>;

  it('writes every rate of the 90-day file and the daily one with the run that wrote it; the same again writes nothing', async () => {
    const report = await syncFeeds(ds, options(['90d', 'daily']));
    expect(report.files.map((f) => [f.file, f.status, f.rowsRead, f.created])).toEqual([
      ['eurofxref-hist-90d.xml', 'imported', 64 * 31, 64 * 31],
      ['eurofxref-daily.xml', 'imported', 30, 30],
    ]);
    expect(report.ok).toBe(true);
    expect(await rates("e.currency = 'USD' AND e.day IN ('2025-05-09', '2017-03-03', '2016-12-05')")).toEqual(
      [
        { currency: 'USD', day: '2025-05-09', rate: '1.1252', file: 'eurofxref-daily.xml' },
        { currency: 'USD', day: '2017-03-03', rate: '1.0565', file: 'eurofxref-hist-90d.xml' },
        { currency: 'USD', day: '2016-12-05', rate: '1.0702', file: 'eurofxref-hist-90d.xml' },
      ],
    );
    // The published decimals are kept: GBP's trailing zero is the ECB's.
    expect(await rates("e.currency = 'GBP' AND e.day = '2025-05-09'")).toEqual([
      { currency: 'GBP', day: '2025-05-09', rate: '0.84770', file: 'eurofxref-daily.xml' },
    ]);
    const runs = await ds.query(`SELECT feed, file, status, rows_read::int FROM feed_runs ORDER BY id`);
    expect(runs).toEqual([
      { feed: 'ecb', file: 'eurofxref-hist-90d.xml', status: 'imported', rows_read: 1984 },
      { feed: 'ecb', file: 'eurofxref-daily.xml', status: 'imported', rows_read: 30 },
    ]);

    const version = await readDataVersion(poolOf(ds));
    const again = await syncFeeds(ds, options(['90d', 'daily']));
    expect(again.files.map((f) => [f.file, f.status, f.created])).toEqual([
      ['eurofxref-hist-90d.xml', 'imported', 0],
      ['eurofxref-daily.xml', 'imported', 0],
    ]);
    expect(await readDataVersion(poolOf(ds))).toBe(version);
    // Asked for politely: the project's User-Agent, one request per file each time.
    expect(server.statusesOf(daily)).toEqual([200, 200]);
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^tcg-pricing-feeds\//);
  });

  it('refuses a broken file before writing anything of it, and keeps the rates it had', async () => {
    await syncFeeds(ds, options(['daily']));
    const text = (await readFile(join(FIXTURES, 'eurofxref-daily.xml'), 'utf8'))
      .replace("time='2025-05-09'", "time='2025-05-12'")
      .replace("rate='163.36'", "rate='163,36'");
    server.file(daily, Buffer.from(text));
    const report = await syncFeeds(ds, options(['daily']));
    expect(report.ok).toBe(false);
    expect(report.files[0]).toMatchObject({ file: 'eurofxref-daily.xml', status: 'failed' });
    expect(report.files[0]!.error).toMatch(/rate="163,36" is not a positive decimal/);
    // Not even the USD rate before the broken JPY one.
    expect(await rates("e.day = '2025-05-12'")).toEqual([]);
    expect((await rates()).length).toBe(30);
    expect(await ds.query(`SELECT status, error IS NOT NULL AS why FROM feed_runs ORDER BY id`)).toEqual([
      { status: 'imported', why: false },
      { status: 'failed', why: true },
    ]);
  });

  it('reads the files of a --from folder, the longest history first', async () => {
    const from = await mkdtemp(join(tmpdir(), 'ecb-from-'));
    try {
      for (const f of ['eurofxref-daily.xml', 'eurofxref-hist-90d.xml'])
        await writeFile(join(from, f), await readFile(join(FIXTURES, f)));
      const report = await syncFeeds(ds, { ...options(['daily']), from });
      expect(report.files.map((f) => [f.file, f.status, f.download])).toEqual([
        ['eurofxref-hist-90d.xml', 'imported', 'local'],
        ['eurofxref-daily.xml', 'imported', 'local'],
      ]);
      expect(server.requests).toEqual([]);
    } finally {
      await rm(from, { recursive: true, force: true });
    }
  });
});
