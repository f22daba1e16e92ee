import { FeedCatalogueRepository } from '@tcg/persistence';
import type { DataSource } from 'typeorm';
import { log } from '../common/log';
import { RunCounts } from './run-counts';
import type { FeedName, FileReport } from './sync';

/**
 * Runs one unit of a feed (a category's day, a price guide) as a `feed_runs` row: started, then
 * finished with its counts and, when `work` says so or throws, why it failed. Unmatched rows go to
 * `unmatchedFile`. `work` returns undefined when all went well, else what to report.
 */
export async function recordedRun<D extends Record<string, unknown>>(
  ds: DataSource,
  run: {
    feed: FeedName;
    file: string;
    unmatchedFile?: string;
    /** The day the run's rows belong to (a back-fill's): written on each unmatched row. */
    day?: string;
    details: D;
    done: string;
  },
  work: (counts: RunCounts, details: D) => Promise<string | undefined>,
): Promise<FileReport> {
  const started = Date.now();
  const runs = new FeedCatalogueRepository(ds);
  const runId = await runs.startRun(run.feed, run.file);
  const counts = new RunCounts(run.unmatchedFile, { day: run.day });
  const report = (error?: string): FileReport => ({
    feed: run.feed,
    file: run.file,
    status: error === undefined ? 'imported' : 'failed',
    ...counts.snapshot(),
    details: run.details,
    error,
    seconds: (Date.now() - started) / 1000,
  });
  try {
    const error = await work(counts, run.details);
    await counts.close();
    await runs.finishRun(runId, { file: run.file }, counts.snapshot(), error);
    const done = report(error);
    log(error ? 'error' : 'info', run.done, { ...done });
    return done;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log('error', `${run.done}: failed part-way, the next sync goes on from there`, {
      file: run.file,
      error: message,
    });
    await counts.close().catch(() => undefined);
    await runs.finishRun(runId, { file: run.file }, counts.snapshot(), message).catch(() => undefined);
    return report(message);
  }
}
