import { refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { tinyCatalogue, useTestDatabase } from '@tcg/persistence/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { startCli, type CliProcess } from '../testing/cli-process';

/**
 * The importer as a user runs it (`node dist/tools/importer/import.js`, so build first), killed
 * with SIGKILL at the points where a kill used to lose data or leave summaries stale for good.
 */
const IMPORT = join(resolve(__dirname, '../..'), 'dist/tools/importer/import.js');
const DAY = 86_400;
const FIRST_DAY = Date.UTC(2010, 0, 1) / 1000;

function startImport(file: string, batchSize: number): CliProcess {
  return startCli(IMPORT, [file, '--batch-size', String(batchSize)]);
}

async function runImport(file: string, batchSize = 50): Promise<string> {
  const run = startImport(file, batchSize);
  const code = await run.exited;
  if (code !== 0) throw new Error(`import exited ${code}: ${run.stderr()}`);
  return run.stderr();
}

/** Polls `check` while the importer runs; fails with its log if it exits or takes 30 s. */
async function until<T>(
  what: string,
  run: CliProcess,
  check: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    if (run.child.exitCode !== null) throw new Error(`import exited before ${what}: ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}: ${run.stderr()}`);
}

describe('importer killed (PostgreSQL)', () => {
  let ds: DataSource;
  let dir: string;
  const cat = tinyCatalogue();
  const nm = cat.variants[0]!;

  /** One NA observation per day from `fromDay`, priced `price(i)` cents. */
  async function priceFile(name: string, days: number[], price: (day: number) => number): Promise<string> {
    const file = join(dir, name);
    const rows = days.map((d) =>
      JSON.stringify({
        variant_id: nm.uuid,
        region: 'NA',
        time: FIRST_DAY + d * DAY,
        price: (price(d) / 100).toFixed(2),
        currency: 'USD',
      }),
    );
    await writeFile(file, `${rows.join('\n')}\n`);
    return file;
  }
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

  /** The stored days of the NA series of `nm`, ascending. */
  async function storedDays(): Promise<number[]> {
    const rows: { t: number }[] = await ds.query(
      `SELECT extract(epoch FROM month)::bigint + o AS t
       FROM price_series, unnest(offsets) AS o
       WHERE variant_uuid = $1 AND region = 'NA' ORDER BY 1`,
      [nm.uuid],
    );
    return rows.map((r) => (Number(r.t) - FIRST_DAY) / DAY);
  }

  /** Rows where a summary differs from its definition recomputed now, over the three summaries. */
  async function summaryDrift(): Promise<number> {
    let drift = 0;
    for (const view of ['card_values', 'set_summaries', 'game_summaries']) {
      const [{ def }] = await ds.query(`SELECT pg_get_viewdef($1::regclass) AS def`, [view]);
      const body = (def as string).trim().replace(/;$/, '');
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM (
           (SELECT * FROM ${view} EXCEPT ALL (${body}))
           UNION ALL
           ((${body}) EXCEPT ALL SELECT * FROM ${view})) AS d`,
      );
      drift += n;
    }
    return drift;
  }
  const marks = async () => Number((await ds.query('SELECT count(*)::int AS n FROM summary_marks'))[0].n);
  const cardPrice = async () => Number((await ds.query('SELECT price FROM card_values'))[0]?.price);

  useTestDatabase((opened) => (ds = opened));
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tcg-import-faults-'));
  });
  beforeEach(async () => {
    await writeCatalogue(ds, cat);
    await refreshSummaries(ds);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('killed after some batches: whole batches only, and the next run finishes the file and the summaries', async () => {
    const days = range(0, 4000);
    const file = await priceFile('many.ndjson', days, (d) => 100 + d);
    const run = startImport(file, 50);
    await until('3 batches', run, () => (/"batches":3\b/.test(run.stderr()) ? true : undefined));
    run.child.kill('SIGKILL');
    expect(await run.exited).toBe('SIGKILL');

    const applied = await storedDays();
    expect(applied.length).toBeGreaterThanOrEqual(150);
    expect(applied.length).toBeLessThan(4000);
    expect(applied.length % 50).toBe(0); // no batch half-applied
    expect(applied).toEqual(range(0, applied.length)); // the file's first batches, in order
    expect(await marks()).toBeGreaterThan(0);
    expect(await summaryDrift()).toBeGreaterThan(0); // stale, and marked so

    await runImport(file);
    expect(await storedDays()).toEqual(days);
    expect(await summaryDrift()).toBe(0);
    expect(await cardPrice()).toBe(100 + 3999);
    expect(await marks()).toBe(0);
  });

  it('killed in its refresh, after its last commit: the next run refreshes the summaries', async () => {
    await runImport(await priceFile('first.ndjson', range(0, 100), () => 500));
    expect(await cardPrice()).toBe(500);

    // The refresh reads sets and the batches do not (they read cards, to render their documents):
    // a lock on sets holds the importer after its last commit, in its refresh (card_values done,
    // set_summaries waiting), where it is killed.
    const second = await priceFile('second.ndjson', range(100, 100), () => 900);
    const blocker = ds.createQueryRunner();
    await blocker.connect();
    try {
      await blocker.startTransaction();
      await blocker.query('LOCK TABLE sets IN ACCESS EXCLUSIVE MODE');
      const run = startImport(second, 30);
      const backend = await until('the refresh to wait', run, async () => {
        const rows: { pid: number }[] = await ds.query(
          `SELECT pid FROM pg_stat_activity
           WHERE datname = current_database() AND application_name = 'tcg-tools'
             AND wait_event_type = 'Lock' AND query LIKE '%tcg_refresh_summary%'`,
        );
        return rows[0]?.pid;
      });
      run.child.kill('SIGKILL');
      expect(await run.exited).toBe('SIGKILL');
      // PostgreSQL notices a dead client only when it next talks to it; end the orphaned
      // session now, as it would be, so that its refresh does not run once the lock is gone.
      await ds.query('SELECT pg_terminate_backend($1)', [backend]);
    } finally {
      await blocker.rollbackTransaction();
      await blocker.release();
    }

    expect((await storedDays()).length).toBe(200); // every batch committed
    // Killed at the view that reads sets: card_values was refreshed, the views after it were not.
    expect(await summaryDrift()).toBeGreaterThan(0);
    expect(await marks()).toBeGreaterThan(0);

    const log = await runImport(await priceFile('empty.ndjson', [], () => 0));
    expect(log).toContain('"repairedStaleSummaries":true');
    expect(await cardPrice()).toBe(900);
    expect(await summaryDrift()).toBe(0);
    expect(await marks()).toBe(0);
  });

  const N = 2000;
  it('two overlapping imports of the same series: every row lands and the summaries agree with the data', async () => {
    const even = range(0, N).map((i) => 2 * i);
    const odd = range(0, N).map((i) => 2 * i + 1);
    const [a, b] = [
      startImport(await priceFile('even.ndjson', even, (d) => 1000 + d), 20),
      startImport(await priceFile('odd.ndjson', odd, (d) => 1000 + d), 20),
    ];
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
    // The scenario needs them to overlap: each committed a batch before the other was done.
    const at = (log: string, msg: string) =>
      Date.parse(
        /"time":"([^"]+)"[^\n]*"msg":"/.exec(log.split('\n').find((l) => l.includes(msg)) ?? '')?.[1] ?? '',
      );
    expect(at(a.stderr(), 'import progress')).toBeLessThan(at(b.stderr(), 'import done'));
    expect(at(b.stderr(), 'import progress')).toBeLessThan(at(a.stderr(), 'import done'));
    expect(await storedDays()).toEqual(range(0, 2 * N));
    expect(await summaryDrift()).toBe(0);
    expect(await cardPrice()).toBe(1000 + 2 * N - 1);
    expect(await marks()).toBe(0);
  });
});
