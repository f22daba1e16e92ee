import type { FeedCatalogueRepository } from '@tcg/persistence';
import { join } from 'node:path';
import { log } from '../common/log';
import { pacedBy, type Paced } from '../common/rest-ratio';
import type { DownloadDeadlines } from './download';
import { RunCounts } from './run-counts';

/**
 * The feeds a sync knows, in the order it runs them: Cardmarket after MTGJSON, whose printings'
 * Cardmarket ids are what the price guide is matched through; the ECB's exchange rates last (no card
 * data: what v2's `currency=` converts with, depending on no other feed).
 */
export const FEEDS = ['mtgjson', 'scryfall', 'tcgcsv', 'cardmarket', 'ecb'] as const;
export type FeedName = (typeof FEEDS)[number];

/**
 * A source of card data (MTGJSON, Scryfall, TCGCSV, Cardmarket): the runs it has to make this time.
 * The sync makes each one the same way (`recordRun`): acquire, check, apply, one `feed_runs` row.
 */
export interface Feed {
  readonly name: FeedName;
  /**
   * Its runs, in order. Named as they come: a run may depend on the ones made before it (MTGJSON's
   * SKUs and prices map onto its printings), and a day's categories are known once the day is read
   * (TCGCSV). Throws when the feed cannot name them at all (TCGCSV's day unreadable).
   */
  runs(): AsyncIterable<FeedRun | SkippedRun>;
}

/** What every feed is configured with. */
export interface FeedOptions {
  /** Where a feed keeps its downloads (conditional requests, resumes), its progress and unmatched rows. */
  readonly dir: string;
  /** Read the feed's files from this folder instead of downloading them (a machine without internet). */
  readonly from?: string;
  readonly deadlines?: DownloadDeadlines;
}

/** What a run's record says of what it read once acquired. */
export interface Acquired {
  /** Its name as acquired (`AllPrintings.json.gz` for the run `AllPrintings`). */
  readonly file: string;
  readonly sha256?: string;
  readonly fetchedAt?: Date;
  readonly download?: 'fetched' | 'unchanged' | 'local';
}

/**
 * One unit of a feed, recorded as one `feed_runs` row: a file (MTGJSON's, Scryfall's), a price
 * guide, a TCGCSV category's day. Each step takes what the one before gave; nothing is written
 * before `check` has passed.
 */
export interface FeedRun<Got extends Acquired = Acquired, Checked = unknown> {
  /** Its name in `feed_runs` until acquired: `AllPrintings`, `price_guide_1.json`, `62@2026-11-25`. */
  readonly file: string;
  /** Its unmatched rows go to `<dir>/unmatched-<feed>-<unmatched>.ndjson`. */
  readonly unmatched?: string;
  /** The day its rows belong to (a back-fill's): written on each unmatched row. */
  readonly day?: string;
  /** Downloads or finds it; throws when it cannot be had. */
  acquire(): Promise<Got>;
  /** Reads it whole before anything of it is written; throws when it breaks its format. */
  check(got: Got): Promise<Checked>;
  /**
   * Writes it, counting into `counts`, each committed write unit (a batch, a TCGCSV group) made
   * through `paced`. `error` says a part of it could not be written (a TCGCSV group): the run
   * fails and the rest stays. A throw stops it part-way: its committed batches stay and the next
   * sync completes it. `runId` is its `feed_runs` row, for rows that name the run that wrote them
   * (the ECB's rates).
   */
  apply(checked: Checked, counts: RunCounts, paced: Paced, runId: string): Promise<Applied>;
}

export { pacedBy, type Paced } from '../common/rest-ratio';

/** What a run wrote: its details for the report, and why a part of it was not written. */
export interface Applied {
  readonly details: Readonly<Record<string, unknown>>;
  readonly error?: string;
}

/** A run left out this time, and why (MTGJSON's SKUs without its printings): reported, not recorded. */
export interface SkippedRun {
  readonly file: string;
  readonly skipped: string;
}

/** What a sync did with one run (a file; TCGCSV: a category's day). */
export interface FileReport {
  readonly feed: FeedName;
  readonly file: string;
  /**
   * `imported`: read and mapped; `failed`: refused before any write, or imported in part or stopped
   * part-way, what was written kept for the next sync to complete (see `error`); `skipped`: not read.
   */
  readonly status: 'imported' | 'failed' | 'skipped';
  readonly sha256?: string;
  readonly download?: 'fetched' | 'unchanged' | 'local';
  readonly rowsRead?: number;
  readonly matched?: number;
  readonly created?: number;
  readonly unmatched?: number;
  readonly observations?: number;
  readonly reasons?: Readonly<Record<string, number>>;
  readonly unmatchedFile?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly error?: string;
  readonly seconds: number;
}

/**
 * Makes one run of `feed` and records it, whatever happens: a `feed_runs` row started, then
 * finished with its counts, or failed with why. A run that cannot be acquired or fails its check
 * imports nothing; one that fails part-way keeps what it committed. Its unmatched rows go to the
 * operator's file. Its write units are made through `paced`.
 */
export async function recordRun(
  runs: FeedCatalogueRepository,
  dir: string,
  feed: FeedName,
  run: FeedRun | SkippedRun,
  paced: Paced = pacedBy(0),
): Promise<FileReport> {
  if ('skipped' in run) return { feed, file: run.file, status: 'skipped', error: run.skipped, seconds: 0 };
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  const runId = await runs.startRun(feed, run.file);
  // Started anew by every attempt: the last run's list would otherwise look like this one's.
  const counts = new RunCounts(run.unmatched && join(dir, `unmatched-${feed}-${run.unmatched}.ndjson`), {
    day: run.day,
  });
  let got: Acquired | undefined;
  let applying = false;
  try {
    got = await run.acquire();
    const checked = await run.check(got);
    applying = true;
    const { details, error } = await run.apply(checked, counts, paced, runId);
    const unmatchedFile = await counts.close();
    await runs.finishRun(runId, got, counts.snapshot(), error);
    const report: FileReport = {
      ...reported(feed, got),
      status: error === undefined ? 'imported' : 'failed',
      ...counts.snapshot(),
      unmatchedFile,
      details,
      error,
      seconds: seconds(),
    };
    if (error === undefined) log('info', 'feed file imported', { ...report });
    else log('error', 'feed file imported in part: the next sync tries the rest again', { ...report });
    return report;
  } catch (error) {
    const acquired = got ?? { file: run.file };
    log(
      'error',
      applying
        ? 'feed file import failed part-way: the next sync completes it'
        : 'feed file refused: nothing of it is imported',
      { feed, file: acquired.file, error: messageOf(error) },
    );
    await counts.close().catch(() => undefined);
    await runs.finishRun(runId, acquired, counts.snapshot(), messageOf(error)).catch(() => undefined);
    return {
      ...reported(feed, acquired),
      status: 'failed',
      // A refused run read nothing: it has no counts.
      ...(applying ? counts.snapshot() : {}),
      error: messageOf(error),
      seconds: seconds(),
    };
  }
}

/** What the report says of the file. */
function reported(
  feed: FeedName,
  { file, sha256, download }: Acquired,
): Pick<FileReport, 'feed' | 'file' | 'sha256' | 'download'> {
  return { feed, file, sha256, download };
}

/** A run that cannot be had at all (a category the day does not list, an archive that does not open). */
export function refusedRun(file: string, why: string): FeedRun<never, never> {
  const refuse = () => Promise.reject(new Error(why));
  return { file, acquire: refuse, check: refuse, apply: refuse };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
