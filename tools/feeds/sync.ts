import { FeedCatalogueRepository, refreshSummariesIfStale } from '@tcg/persistence';
import { mkdir } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import { log } from '../common/log';
import { cardmarketFeed, type CardmarketOptions } from './cardmarket/cardmarket-sync';
import { ecbFeed, type EcbOptions } from './ecb/ecb-sync';
import {
  FEEDS,
  messageOf,
  pacedBy,
  recordRun,
  type Feed,
  type FeedName,
  type FeedOptions,
  type FeedRun,
  type FileReport,
  type SkippedRun,
} from './feed';
import { mtgjsonFeed, type MtgjsonOptions } from './magic/mtgjson-sync';
import { scryfallFeed } from './magic/scryfall-sync';
import { tcgcsvFeed, type TcgcsvOptions } from './tcgcsv/tcgcsv-sync';

export interface SyncOptions extends FeedOptions {
  readonly feeds: readonly FeedName[];
  readonly mtgjsonBaseUrl?: string;
  readonly scryfallBulkUrl?: string;
  /** MTGJSON's compression to download: it publishes `.gz`, `.xz` and `.bz2`. */
  readonly mtgjsonCompression?: MtgjsonOptions['compression'];
  /** TCGCSV: the categories to sync as games, its address and how hard to press it. */
  readonly tcgcsv?: Omit<TcgcsvOptions, keyof FeedOptions>;
  /** Cardmarket's price guides: which games, its address and how hard to press it. */
  readonly cardmarket?: Omit<CardmarketOptions, keyof FeedOptions>;
  /** The ECB's exchange rates: which files (daily, a history) and its address. */
  readonly ecb?: Omit<EcbOptions, keyof FeedOptions>;
  /**
   * After each write unit of a run (a batch; TCGCSV: a group), rest this many times as long as it
   * took (0, the default: none): a sync beside serving traffic (`pacedBy`).
   */
  readonly restRatio?: number;
  /** How a rest waits (tests pass their own); milliseconds. */
  readonly sleep?: (ms: number) => Promise<unknown>;
}

export interface SyncReport {
  readonly files: FileReport[];
  readonly ok: boolean;
}

/** Each feed as these options configure it. */
const CONFIGURED: Record<FeedName, (ds: DataSource, opts: SyncOptions) => Feed> = {
  mtgjson: (ds, opts) =>
    mtgjsonFeed(ds, { ...shared(opts), baseUrl: opts.mtgjsonBaseUrl, compression: opts.mtgjsonCompression }),
  scryfall: (ds, opts) => scryfallFeed(ds, { ...shared(opts), bulkUrl: opts.scryfallBulkUrl }),
  tcgcsv: (ds, opts) => tcgcsvFeed(ds, { ...games(opts.tcgcsv, 'tcgcsv'), ...shared(opts) }),
  cardmarket: (ds, opts) => cardmarketFeed(ds, { ...games(opts.cardmarket, 'cardmarket'), ...shared(opts) }),
  ecb: (ds, opts) => ecbFeed(ds, { ...opts.ecb, ...shared(opts) }),
};

function shared(opts: SyncOptions): FeedOptions {
  return { dir: opts.dir, from: opts.from, deadlines: opts.deadlines };
}

function games<T>(options: T | undefined, feed: FeedName): T {
  if (!options) throw new Error(`the ${feed} feed needs its games configured`);
  return options;
}

/**
 * Brings the public feeds into the catalogue (issues 23 and 25): each configured feed in turn,
 * each of its runs acquired (downloaded, or taken from `from`), checked whole before anything of
 * it is written, then applied onto the catalogue through the loader's writer and the importer's
 * ingest, with a `feed_runs` row and its unmatched rows in a file (`recordRun`). A run that fails
 * its check imports nothing and the sync goes on with the runs that do not need it; the report
 * says which failed and why. A second sync of the same files writes nothing.
 */
export async function syncFeeds(ds: DataSource, opts: SyncOptions): Promise<SyncReport> {
  const runs = new FeedCatalogueRepository(ds);
  const sole = await runs.exclusively(() => syncAll(ds, runs, opts));
  if (!sole) throw new Error('another feeds sync is running on this database: try again once it has ended');
  return sole.value;
}

async function syncAll(
  ds: DataSource,
  runs: FeedCatalogueRepository,
  opts: SyncOptions,
): Promise<SyncReport> {
  await mkdir(opts.dir, { recursive: true });
  // A run killed before its end left its rows 'running': they are over.
  await runs.closeInterruptedRuns();
  const files: FileReport[] = [];
  const paced = pacedBy(opts.restRatio ?? 0, opts.sleep);
  try {
    for (const name of FEEDS.filter((f) => opts.feeds.includes(f))) {
      const feed = CONFIGURED[name](ds, opts);
      for await (const run of runsOf(feed, opts.from))
        files.push('status' in run ? run : await recordRun(runs, opts.dir, feed.name, run, paced));
    }
  } finally {
    // Card, set and game summaries follow once per sync, as after an import, whatever failed.
    const started = performance.now();
    if (await refreshSummariesIfStale(ds, { analyze: true }))
      log('info', 'summaries refreshed', { seconds: Math.round(performance.now() - started) / 1000 });
  }
  return { files, ok: files.every((f) => f.status === 'imported') };
}

/**
 * The feed's runs. A feed that cannot name them (TCGCSV's day: its timestamp, its category listing,
 * an archive folder) ends with one failed report, and no run recorded; the sync goes on with the
 * next feed. Only the feed's own errors are caught here: a run's record that cannot be written
 * ends the sync.
 */
async function* runsOf(
  feed: Feed,
  from: string | undefined,
): AsyncGenerator<FeedRun | SkippedRun | FileReport> {
  const started = Date.now();
  try {
    yield* feed.runs();
  } catch (error) {
    log('error', `${feed.name} not synced`, { error: messageOf(error) });
    yield {
      feed: feed.name,
      file: from ?? feed.name,
      status: 'failed',
      error: messageOf(error),
      seconds: (Date.now() - started) / 1000,
    };
  }
}
