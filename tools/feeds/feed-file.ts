import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { log } from '../common/log';
import { megabytes, progress } from '../common/progress';
import { compressionOf, decompressed } from './decompress';
import { digestIn, digestOf, download, type DownloadDeadlines } from './download';
import type { Acquired, FeedName, FeedRun, Paced } from './feed';
import type { RunCounts } from './run-counts';

/** A feed file on disk: where it is, and what its run's record says of it. */
export interface FeedFile extends Acquired {
  readonly path: string;
  readonly sha256: string;
  readonly fetchedAt: Date;
  readonly download: 'fetched' | 'unchanged' | 'local';
}

/** A feed format's reader: the rows of a file, from its decompressed bytes. */
export type Reader<T> = (file: string, chunks: AsyncIterable<Buffer>) => AsyncIterable<T>;

/**
 * The run of one whole file (MTGJSON's, Scryfall's): checked by a full parse with `reader` before
 * anything of it is written, then read again into `apply`, which makes each batch it writes
 * through `paced` and returns the run's details.
 */
export function fileRun<T>(
  feed: FeedName,
  name: string,
  acquire: () => Promise<FeedFile>,
  reader: Reader<T>,
  apply: (
    rows: AsyncIterable<T>,
    counts: RunCounts,
    paced: Paced,
    file: FeedFile,
    runId: string,
  ) => Promise<Record<string, unknown>>,
): FeedRun<FeedFile, FeedFile> {
  const rows = async (file: FeedFile, doing: string) =>
    reader(file.path, await readWithProgress(file.path, `${doing} ${file.file}`));
  return {
    file: name,
    unmatched: name,
    acquire,
    check: async (file) => {
      let count = 0;
      for await (const _ of await rows(file, 'checking')) count++;
      log('info', 'feed file checked', { feed, file: file.file, rows: count, sha256: file.sha256 });
      return file;
    },
    apply: async (file, counts, paced, runId) => ({
      details: await apply(await rows(file, 'importing'), counts, paced, file, runId),
    }),
  };
}

/** Downloads `url` to `dest`: conditionally, resumably, verified against `sha256Url` when given. */
export async function downloaded(
  url: string,
  dest: string,
  opts: { sha256Url?: string; deadlines?: DownloadDeadlines },
): Promise<FeedFile> {
  const file = basename(dest);
  let bar: ReturnType<typeof progress> | undefined;
  const result = await download({
    url,
    dest,
    ...opts,
    onProgress: (bytes, total) => {
      bar ??= progress({
        msg: 'download progress',
        label: `downloading ${file}`,
        unit: 'MB',
        total,
        format: megabytes,
      });
      bar.update(bytes, { file });
    },
  });
  bar?.end();
  log('info', 'feed file downloaded', { url, file, ...result });
  return {
    path: dest,
    file,
    sha256: result.sha256,
    fetchedAt: (await stat(dest)).mtime,
    download: result.status,
  };
}

/**
 * The last file of `dir` by name that `pattern` takes (`what` names it in the error when none
 * does), checked against a `<file>.sha256` beside it when there is one.
 */
export async function found(dir: string, pattern: RegExp, what: string): Promise<FeedFile> {
  const chosen = (await readdir(dir))
    .filter((e) => pattern.test(e))
    .sort()
    .at(-1);
  if (!chosen) throw new Error(`${dir}: no ${what} file (looked for ${pattern.source})`);
  const path = join(dir, chosen);
  const sha256 = await digestOf(path);
  const published = await readFile(`${path}.sha256`, 'utf8').then(
    (text) => digestIn(text) ?? 'no sha256 digest',
    () => undefined,
  );
  if (published !== undefined && published !== sha256)
    throw new Error(`${path}: sha256 ${sha256} is not the published ${published}`);
  return { path, file: chosen, sha256, fetchedAt: (await stat(path)).mtime, download: 'local' };
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
