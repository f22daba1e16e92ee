import { FeedCatalogueRepository } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { recordRun, refusedRun, type FeedRun } from './feed';

describe('recordRun: every feed run recorded one way', () => {
  let ds: DataSource;
  let dir: string;
  useTestDatabase((opened) => (ds = opened));
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'feed-run-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A run of one row, unmatched, whose `apply` ends as `end` says. */
  const run = (file: string, end: 'done' | 'in part' | 'throws'): FeedRun<{ file: string }, string> => ({
    file,
    unmatched: file,
    acquire: () => Promise.resolve({ file: `${file}.json` }),
    check: () => Promise.resolve('checked'),
    apply: (checked, counts) => {
      counts.rowsRead++;
      counts.miss('no such card', { row: 1 });
      if (end === 'throws') return Promise.reject(new Error('cut part-way'));
      return Promise.resolve({
        details: { checked },
        error: end === 'in part' ? 'a group failed' : undefined,
      });
    },
  });
  const record = (r: Parameters<typeof recordRun>[3]) =>
    recordRun(new FeedCatalogueRepository(ds), dir, 'cardmarket', r);

  it('records what each run did, and reports a skipped one without a row', async () => {
    const reports = [
      await record(run('done', 'done')),
      await record(run('part', 'in part')),
      await record(run('cut', 'throws')),
      await record(refusedRun('refused', 'not published')),
      await record({ file: 'skipped', skipped: 'nothing to map onto' }),
    ];
    expect(reports.map((r) => [r.file, r.status, r.rowsRead, r.error])).toEqual([
      ['done.json', 'imported', 1, undefined],
      ['part.json', 'failed', 1, 'a group failed'],
      ['cut.json', 'failed', 1, 'cut part-way'],
      ['refused', 'failed', undefined, 'not published'],
      ['skipped', 'skipped', undefined, 'nothing to map onto'],
    ]);
    expect(reports[0]).toMatchObject({
      details: { checked: 'checked' },
      unmatchedFile: join(dir, 'unmatched-cardmarket-done.ndjson'),
    });
    expect(
      await ds.query(
        `SELECT feed, file, status, rows_read::int, unmatched::int, error FROM feed_runs ORDER BY id`,
      ),
    ).toEqual([
      { feed: 'cardmarket', file: 'done.json', status: 'imported', rows_read: 1, unmatched: 1, error: null },
      {
        feed: 'cardmarket',
        file: 'part.json',
        status: 'failed',
        rows_read: 1,
        unmatched: 1,
        error: 'a group failed',
      },
      {
        feed: 'cardmarket',
        file: 'cut.json',
        status: 'failed',
        rows_read: 1,
        unmatched: 1,
        error: 'cut part-way',
      },
      {
        feed: 'cardmarket',
        file: 'refused',
        status: 'failed',
        rows_read: 0,
        unmatched: 0,
        error: 'not published',
      },
    ]);
    expect(await readFile(join(dir, 'unmatched-cardmarket-cut.ndjson'), 'utf8')).toBe(
      `${JSON.stringify({ reason: 'no such card', row: 1 })}\n`,
    );
  });
});
