import { FeedCatalogueRepository, refreshSummariesIfStale } from '@tcg/persistence';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DataSource } from 'typeorm';
import { log } from '../common/log';
import { megabytes, progress } from '../common/progress';
import { compressionOf, decompressed } from './decompress';
import {
  digestIn,
  digestOf,
  download,
  fetchJson,
  FeedDownloadError,
  type DownloadDeadlines,
} from './download';
import { syncPrices } from './magic/prices-sync';
import { syncPrintings, type PrintingsResult } from './magic/printings-sync';
import { syncScryfall } from './magic/scryfall-sync';
import { syncSkus } from './magic/skus-sync';
import { readAllPrices } from './mtgjson/all-prices';
import { readAllPrintings } from './mtgjson/all-printings';
import { readTcgplayerSkus } from './mtgjson/tcgplayer-skus';
import { syncCardmarket, type CardmarketGame } from './cardmarket/cardmarket-sync';
import type { Politeness } from './polite-client';
import { RunCounts } from './run-counts';
import { readScryfallCards } from './scryfall/default-cards';
import type { TcgcsvGames } from './tcgcsv/tcgcsv-games';
import { syncTcgcsv } from './tcgcsv/tcgcsv-sync';

export const FEEDS = ['mtgjson', 'scryfall', 'tcgcsv', 'cardmarket'] as const;
export type FeedName = (typeof FEEDS)[number];

export const DEFAULT_MTGJSON_BASE_URL = 'https://mtgjson.com/api/v5';
export const DEFAULT_SCRYFALL_BULK_URL = 'https://api.scryfall.com/bulk-data';

export interface SyncOptions {
  readonly feeds: readonly FeedName[];
  /** Where downloads are kept between runs (conditional requests, resumes) and unmatched rows go. */
  readonly dir: string;
  /** Read the files from this folder instead of downloading them (a machine without internet). */
  readonly from?: string;
  readonly mtgjsonBaseUrl?: string;
  readonly scryfallBulkUrl?: string;
  /** MTGJSON's compression to download: it publishes `.gz`, `.xz` and `.bz2`. */
  readonly mtgjsonCompression?: '.gz' | '.xz' | '.bz2';
  readonly deadlines?: DownloadDeadlines;
  /** TCGCSV: the categories to sync as games, its address and how hard to press it. */
  readonly tcgcsv?: {
    readonly games: TcgcsvGames;
    readonly baseUrl?: string;
    readonly politeness?: Politeness;
    /** Apply every group again, those already applied unchanged too (`--resync`). */
    readonly resync?: boolean;
    readonly now?: () => number;
  };
  /** Cardmarket's price guides: which games, its address and how hard to press it. */
  readonly cardmarket?: {
    readonly games: readonly CardmarketGame[];
    readonly baseUrl?: string;
    readonly politeness?: Politeness;
  };
}

/** What a sync did with one feed file (TCGCSV: with one category's day). */
export interface FileReport {
  readonly feed: FeedName;
  readonly file: string;
  /** `imported`: read and mapped; `failed`: nothing of it was imported (see `error`); `skipped`: not read. */
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

export interface SyncReport {
  readonly files: FileReport[];
  readonly ok: boolean;
}

interface Acquired {
  readonly path: string;
  readonly sha256: string;
  readonly fetchedAt: Date;
  readonly download: 'fetched' | 'unchanged' | 'local';
}

type Reader<T> = (file: string, chunks: AsyncIterable<Buffer>) => AsyncIterable<T>;

/**
 * Brings the public Magic feeds into the catalogue (issue 23): downloads each file (or takes it
 * from `from`), checks it whole — its published sha256 and a full parse — before anything of it
 * is written, then maps it onto the catalogue through the loader's writer and the importer's
 * ingest, recording a `feed_runs` row per file and keeping its unmatched rows in a file. A file
 * that fails its check imports nothing and the sync goes on with the files that do not need it;
 * the report says which failed and why. A second sync of the same files writes nothing.
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
  try {
    await syncFiles(ds, runs, opts, files);
  } finally {
    // Card, set and game summaries follow once per sync, as after an import, whatever failed.
    const started = performance.now();
    if (await refreshSummariesIfStale(ds, { analyze: true }))
      log('info', 'summaries refreshed', { seconds: Math.round(performance.now() - started) / 1000 });
  }
  return { files, ok: files.every((f) => f.status === 'imported') };
}

async function syncFiles(
  ds: DataSource,
  runs: FeedCatalogueRepository,
  opts: SyncOptions,
  files: FileReport[],
): Promise<void> {
  if (opts.feeds.includes('mtgjson')) {
    let printings: PrintingsResult | undefined;
    files.push(
      await runFile(runs, opts, 'mtgjson', 'AllPrintings', readAllPrintings, async (items, counts) => {
        printings = await syncPrintings(ds, items, counts);
        return {
          matchedBy: printings.matchedBy,
          cardsUpdated: printings.cardsUpdated,
          cardmarketIds: printings.cardmarketIdsWritten,
          v3CardsUnmapped: printings.v3Unmapped.length,
        };
      }),
    );
    const mapped = printings as PrintingsResult | undefined;
    if (!mapped) {
      // The SKUs and prices map onto AllPrintings' cards: without them there is nothing to map.
      for (const file of ['TcgplayerSkus', 'AllPrices'])
        files.push({
          feed: 'mtgjson',
          file,
          status: 'skipped',
          error: 'AllPrintings was not imported: its cards are what this file maps onto',
          seconds: 0,
        });
    } else {
      if (mapped.v3Unmapped.length > 0)
        log('warn', 'v3 cards of the synced sets without a v5 counterpart: kept as they are', {
          count: mapped.v3Unmapped.length,
          first: mapped.v3Unmapped.slice(0, 5),
        });
      files.push(
        await runFile(runs, opts, 'mtgjson', 'TcgplayerSkus', readTcgplayerSkus, async (rows, counts) => ({
          ...(await syncSkus(ds, rows, mapped.printings, counts)),
        })),
      );
      files.push(
        await runFile(runs, opts, 'mtgjson', 'AllPrices', readAllPrices, async (rows, counts) => ({
          ...(await syncPrices(ds, rows, mapped.printings, counts)),
        })),
      );
    }
  }

  if (opts.feeds.includes('scryfall')) {
    files.push(
      await runFile(
        runs,
        opts,
        'scryfall',
        'default_cards',
        readScryfallCards,
        // Scryfall's objects carry no date: the file's fetch, never later than now.
        async (cards, counts, file) => ({
          ...(await syncScryfall(
            ds,
            cards,
            startOfDay(new Date(Math.min(file.fetchedAt.getTime(), Date.now()))),
            counts,
          )),
        }),
      ),
    );
  }

  if (opts.feeds.includes('tcgcsv')) {
    if (!opts.tcgcsv) throw new Error('the tcgcsv feed needs its games configured');
    const started = Date.now();
    try {
      files.push(
        ...(await syncTcgcsv(ds, {
          ...opts.tcgcsv,
          dir: opts.dir,
          from: opts.from,
          deadlines: opts.deadlines,
        })),
      );
    } catch (error) {
      // The day could not be read at all (its timestamp, the category listing, an archive folder).
      log('error', 'tcgcsv not synced', { error: messageOf(error) });
      files.push({
        feed: 'tcgcsv',
        file: opts.from ?? 'tcgcsv',
        status: 'failed',
        error: messageOf(error),
        seconds: (Date.now() - started) / 1000,
      });
    }
  }

  // After MTGJSON: its printings' Cardmarket ids are what the price guide is matched through.
  if (opts.feeds.includes('cardmarket')) {
    if (!opts.cardmarket) throw new Error('the cardmarket feed needs its games configured');
    files.push(
      ...(await syncCardmarket(ds, {
        ...opts.cardmarket,
        dir: opts.dir,
        from: opts.from,
        deadlines: opts.deadlines,
      })),
    );
  }
}

const EMPTY = new RunCounts(undefined).snapshot();

async function runFile<T>(
  runs: FeedCatalogueRepository,
  opts: SyncOptions,
  feed: FeedName,
  name: string,
  reader: Reader<T>,
  apply: (rows: AsyncIterable<T>, counts: RunCounts, file: Acquired) => Promise<Record<string, unknown>>,
): Promise<FileReport> {
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  // Every attempt is recorded, a file that is never fetched or fails its check too.
  const runId = await runs.startRun(feed, name);
  const refused = async (error: unknown, file?: Acquired): Promise<FileReport> => {
    const shown = file ? basename(file.path) : name;
    log('error', 'feed file refused: nothing of it is imported', {
      feed,
      file: shown,
      error: messageOf(error),
    });
    await runs
      .finishRun(
        runId,
        { file: shown, sha256: file?.sha256, fetchedAt: file?.fetchedAt },
        EMPTY,
        messageOf(error),
      )
      .catch(() => undefined);
    return {
      feed,
      file: shown,
      status: 'failed',
      sha256: file?.sha256,
      download: file?.download,
      error: messageOf(error),
      seconds: seconds(),
    };
  };
  let file: Acquired;
  try {
    file = await acquire(opts, feed, name);
  } catch (error) {
    return refused(error);
  }
  const shown = basename(file.path);
  try {
    // Checked whole before anything is written: a file that breaks its format imports nothing.
    let rows = 0;
    for await (const _ of reader(file.path, await readWithProgress(file.path, `checking ${shown}`))) rows++;
    log('info', 'feed file checked', { feed, file: shown, rows, sha256: file.sha256 });
  } catch (error) {
    return refused(error, file);
  }
  const what = { file: shown, sha256: file.sha256, fetchedAt: file.fetchedAt };
  const counts = new RunCounts(join(opts.dir, `unmatched-${feed}-${name}.ndjson`));
  try {
    const details = await apply(
      reader(file.path, await readWithProgress(file.path, `importing ${shown}`)),
      counts,
      file,
    );
    const unmatchedFile = await counts.close();
    await runs.finishRun(runId, what, counts.snapshot());
    const report: FileReport = {
      feed,
      file: shown,
      status: 'imported',
      sha256: file.sha256,
      download: file.download,
      ...counts.snapshot(),
      unmatchedFile,
      details,
      seconds: seconds(),
    };
    log('info', 'feed file imported', { ...report });
    return report;
  } catch (error) {
    // Its committed batches stay (a rerun completes them); the files that do not need it go on.
    log('error', 'feed file import failed part-way: the next sync completes it', {
      feed,
      file: shown,
      error: messageOf(error),
    });
    await counts.close().catch(() => undefined);
    await runs.finishRun(runId, what, counts.snapshot(), messageOf(error)).catch(() => undefined);
    return {
      feed,
      file: shown,
      status: 'failed',
      sha256: file.sha256,
      download: file.download,
      ...counts.snapshot(),
      error: messageOf(error),
      seconds: seconds(),
    };
  }
}

/** The file to read: downloaded (conditionally, resumably, verified) or found in `from`. */
async function acquire(opts: SyncOptions, feed: FeedName, name: string): Promise<Acquired> {
  if (opts.from) return local(opts.from, feed, name);
  if (feed === 'mtgjson') {
    const extension = opts.mtgjsonCompression ?? '.gz';
    const url = `${opts.mtgjsonBaseUrl ?? DEFAULT_MTGJSON_BASE_URL}/${name}.json${extension}`;
    return fetched(opts, url, join(opts.dir, `${name}.json${extension}`), `${url}.sha256`);
  }
  // Scryfall publishes each bulk file under a dated name, listed by its bulk-data object.
  const indexUrl = `${opts.scryfallBulkUrl ?? DEFAULT_SCRYFALL_BULK_URL}/default-cards`;
  const index = (await fetchJson(indexUrl, opts.deadlines)) as { download_uri?: unknown } | null;
  const uri = index?.download_uri;
  if (typeof uri !== 'string' || !/^https?:\/\//.test(uri))
    throw new FeedDownloadError(indexUrl, 'the bulk-data object has no download_uri');
  if (!trustedBulkFile(new URL(indexUrl), new URL(uri)))
    throw new FeedDownloadError(
      indexUrl,
      `download_uri ${uri.slice(0, 200)} is not Scryfall's, nor the index's host`,
    );
  const extension = new URL(uri).pathname.endsWith('.gz') ? '.json.gz' : '.json';
  return fetched(opts, uri, join(opts.dir, `default-cards${extension}`));
}

async function fetched(opts: SyncOptions, url: string, dest: string, sha256Url?: string): Promise<Acquired> {
  const name = basename(dest);
  let bar: ReturnType<typeof progress> | undefined;
  const result = await download({
    url,
    dest,
    sha256Url,
    deadlines: opts.deadlines,
    onProgress: (bytes, total) => {
      bar ??= progress({
        msg: 'download progress',
        label: `downloading ${name}`,
        unit: 'MB',
        total,
        format: megabytes,
      });
      bar.update(bytes, { file: name });
    },
  });
  bar?.end();
  log('info', 'feed file downloaded', { url, file: name, ...result });
  return { path: dest, sha256: result.sha256, fetchedAt: (await stat(dest)).mtime, download: result.status };
}

/** MTGJSON's names with any of its compressions, Scryfall's dated or plain names. */
async function local(dir: string, feed: FeedName, name: string): Promise<Acquired> {
  const entries = (await readdir(dir)).sort();
  const pattern =
    feed === 'mtgjson'
      ? new RegExp(`^${name}\\.json(\\.gz|\\.xz|\\.bz2)?$`)
      : /^default-cards(-\d+)?\.json(\.gz)?$/;
  const found = entries.filter((e) => pattern.test(e));
  const chosen = found[found.length - 1];
  if (!chosen) throw new Error(`${dir}: no ${feed} ${name} file (looked for ${pattern.source})`);
  const path = join(dir, chosen);
  const sha256 = await digestOf(path);
  const published = await readFile(`${path}.sha256`, 'utf8').then(
    (text) => digestIn(text) ?? 'no sha256 digest',
    () => undefined,
  );
  if (published !== undefined && published !== sha256)
    throw new Error(`${path}: sha256 ${sha256} is not the published ${published}`);
  return { path, sha256, fetchedAt: (await stat(path)).mtime, download: 'local' };
}

/** The file's decompressed bytes, with a bar of the (compressed) bytes read and the time left. */
async function readWithProgress(path: string, label: string): Promise<AsyncIterable<Buffer>> {
  const total = (await stat(path)).size;
  const bar = progress({ msg: 'feed progress', label, unit: 'MB', total, format: megabytes });
  let read = 0;
  let shownAt = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) {
        read += (chunk as Buffer).length;
        if (read - shownAt >= 8 << 20 || read === total) {
          shownAt = read;
          bar.update(read, { file: basename(path) });
        }
        yield chunk as Buffer;
      }
    } finally {
      bar.end();
    }
  }
  return decompressed(path, counted(), compressionOf(path));
}

/**
 * Where a bulk-data object may send the sync: Scryfall's own hosts over HTTPS (its files are on
 * data.scryfall.io), or the host of the index itself (a mirror). Nowhere else, so that an index
 * cannot point the sync at an address inside the cluster.
 */
function trustedBulkFile(index: URL, file: URL): boolean {
  if (file.host === index.host && file.protocol === index.protocol) return true;
  return file.protocol === 'https:' && /(^|\.)scryfall\.(io|com)$/.test(file.hostname);
}

function startOfDay(date: Date): number {
  return Math.floor(date.getTime() / 86_400_000) * 86_400;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
