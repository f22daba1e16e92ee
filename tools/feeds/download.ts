import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename } from 'node:path';
import { writeFileAtomically } from '../common/files';

/** A feed file that could not be fetched whole and verified: nothing of it is kept. */
export class FeedDownloadError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${url}: ${reason}`);
    this.name = 'FeedDownloadError';
  }
}

export interface DownloadDeadlines {
  /** Longest wait for the response's headers, and for any further bytes of its body. */
  readonly idleMs: number;
  /** Longest the whole download may take. */
  readonly totalMs: number;
}

const DEFAULT_DEADLINES: DownloadDeadlines = { idleMs: 30_000, totalMs: 30 * 60_000 };

/** How every feed request names its client: the project, so that a feed's operator knows who asks. */
export const FEEDS_USER_AGENT = 'tcg-pricing-feeds/1 (trading-card pricing API; daily feed sync)';

export interface DownloadRequest {
  readonly url: string;
  /** Where the verified file ends up; `<dest>.part` holds a download in progress. */
  readonly dest: string;
  /** The published digest's address (a `.sha256` holding the hex digest, then anything). */
  readonly sha256Url?: string;
  readonly deadlines?: DownloadDeadlines;
  /**
   * The most the file may hold (the part already had included); default `defaultMaxBytes(dest)`.
   * A larger one is refused, and nothing of it is kept, not even a part to resume.
   */
  readonly maxBytes?: number;
  /** Called as bytes arrive: bytes so far (a resumed download counts what it had), and the total when known. */
  readonly onProgress?: (bytes: number, total: number | undefined) => void;
}

export interface Downloaded {
  /** `fetched`: a new file is at `dest`; `unchanged`: the server said the one there is current. */
  readonly status: 'fetched' | 'unchanged';
  readonly bytes: number;
  readonly sha256: string;
  /** Bytes that came from an earlier, cut download (a `Range` request resumed it). */
  readonly resumedFrom: number;
}

/** What is known of a file at `dest` (or its `.part`), kept beside it as `<file>.meta.json`. */
interface Validators {
  readonly etag?: string;
  readonly lastModified?: string;
  readonly sha256?: string;
  readonly bytes?: number;
}

const GIB = 1024 ** 3;

/**
 * Caps on a feed file's size by its name, a few times what each is now (MTGJSON v5's gzipped
 * AllPrices and AllPrintings are each some hundreds of MB, Scryfall's default cards about 500 MB
 * uncompressed): a feed gone wrong, or a host serving something else under the name, cannot fill
 * the disk.
 */
const MAX_BYTES_BY_NAME: readonly [RegExp, number][] = [
  [/^AllPrices\b/, 8 * GIB],
  [/^AllPrintings\b/, 8 * GIB],
  [/^TcgplayerSkus\b/, 4 * GIB],
  [/^default-cards\b/, 4 * GIB],
];
/** Any other file (Cardmarket's and TCGCSV's are each a few MB). */
const MAX_BYTES_OTHERWISE = 1 * GIB;

/** The most a feed file saved as `dest` may hold unless its request says otherwise. */
export function defaultMaxBytes(dest: string): number {
  const name = basename(dest);
  return MAX_BYTES_BY_NAME.find(([pattern]) => pattern.test(name))?.[1] ?? MAX_BYTES_OTHERWISE;
}

/**
 * Fetches a feed file over HTTP(S), as a well-behaved client of a public feed should:
 * - conditional: `If-None-Match`/`If-Modified-Since` from the last fetch; 304 keeps the file;
 * - resumable: a cut download leaves `<dest>.part` and its validators, and the next call asks for
 *   the rest with `Range` and `If-Range` (a server that answers 200 starts it over);
 * - verified: with `sha256Url`, the whole file's digest must match the published one, or nothing
 *   is kept;
 * - bounded: every wait has a deadline (`idleMs`), and so has the whole (`totalMs`); its size has a
 *   cap (`maxBytes`), checked on the announced length and on every byte, past which the download
 *   fails and leaves no part behind;
 * - atomic: `dest` is replaced by a rename once verified, so a kill at any point leaves the old
 *   file or the new one, and at most a `.part` to resume.
 */
export async function download(req: DownloadRequest): Promise<Downloaded> {
  const deadlines = req.deadlines ?? DEFAULT_DEADLINES;
  const part = `${req.dest}.part`;
  const current = await readValidators(req.dest);
  const partial = await readValidators(part);
  const partBytes = partial.etag || partial.lastModified ? await sizeOf(part) : 0;
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  if (partBytes > 0) {
    headers['range'] = `bytes=${partBytes}-`;
    headers['if-range'] = partial.etag ?? partial.lastModified!;
  } else if (current.sha256 && (await sizeOf(req.dest)) > 0) {
    if (current.etag) headers['if-none-match'] = current.etag;
    if (current.lastModified) headers['if-modified-since'] = current.lastModified;
  }
  const started = Date.now();
  const res = await get(req.url, headers, deadlines);
  if (res.statusCode === 416 && partBytes > 0) {
    // The part already holds the whole file (a run killed after its last byte, before the
    // rename): it is verified again from the start rather than asked for past its end forever.
    res.resume();
    await discard(part);
    return download(req);
  }
  if (res.statusCode === 304) {
    res.resume();
    return { status: 'unchanged', bytes: current.bytes ?? 0, sha256: current.sha256!, resumedFrom: 0 };
  }
  const resumed = res.statusCode === 206 && partBytes > 0;
  if (res.statusCode === 206 && !resumed) throw fail(req.url, res, 'a partial answer to a whole request');
  if (res.statusCode !== 200 && !resumed) throw fail(req.url, res, `HTTP ${res.statusCode}`);
  if (resumed) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(String(res.headers['content-range'] ?? ''));
    if (!range || Number(range[1]) !== partBytes)
      throw fail(req.url, res, 'a range that does not continue the part');
  }
  const validators: Validators = {
    etag: header(res, 'etag'),
    lastModified: header(res, 'last-modified'),
  };
  const from = resumed ? partBytes : 0;
  const length = Number(res.headers['content-length'] ?? NaN);
  const total = Number.isFinite(length) ? from + length : undefined;
  const maxBytes = req.maxBytes ?? defaultMaxBytes(req.dest);
  const tooLarge = (detail: string) =>
    new FeedDownloadError(
      req.url,
      `larger than its cap of ${maxBytes} bytes (${detail}): nothing of it is kept`,
    );
  if (total !== undefined && total > maxBytes) {
    res.destroy();
    // Not a part to resume either: the same file would be refused again.
    await discard(part);
    throw tooLarge(`${total} bytes announced`);
  }
  // The part's validators go down first: a download cut from here on resumes.
  if (validators.etag || validators.lastModified) await writeValidators(part, validators);
  else await rm(metaOf(part), { force: true });
  let bytes = from;
  const remaining = Math.max(1, deadlines.totalMs - (Date.now() - started));
  const overall = setTimeout(
    () => res.destroy(new Error(`the download took longer than ${deadlines.totalMs} ms`)),
    remaining,
  );
  // Each chunk is written before the next is read: whatever arrived before a cut is in the part.
  const out = await open(part, resumed ? 'a' : 'w');
  let over = false;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      // Past the cap (a length not announced, or not kept to): nothing more is written.
      if (bytes + chunk.length > maxBytes) {
        over = true;
        res.destroy();
        break;
      }
      await out.write(chunk);
      bytes += chunk.length;
      req.onProgress?.(bytes, total);
    }
  } catch (error) {
    throw new FeedDownloadError(req.url, `cut after ${bytes} bytes: ${(error as Error).message}`);
  } finally {
    clearTimeout(overall);
    await out.close();
  }
  if (over) {
    await discard(part);
    throw tooLarge('more sent than the cap');
  }
  if (total !== undefined && bytes !== total) {
    throw new FeedDownloadError(req.url, `cut after ${bytes} of ${total} bytes`);
  }
  const sha256 = await digestOf(part);
  if (req.sha256Url) {
    const published = await publishedDigest(req.sha256Url, deadlines);
    if (published !== sha256) {
      await discard(part);
      throw new FeedDownloadError(req.url, `sha256 ${sha256} is not the published ${published}`);
    }
  }
  await fsyncFile(part);
  await writeValidators(req.dest, { ...validators, sha256, bytes });
  await rename(part, req.dest);
  await rm(metaOf(part), { force: true });
  return { status: 'fetched', bytes, sha256, resumedFrom: from };
}

/**
 * A small JSON document (a feed's index, such as Scryfall's bulk-data object): at most `maxBytes`,
 * within the deadlines.
 */
export async function fetchJson(
  url: string,
  deadlines: DownloadDeadlines = DEFAULT_DEADLINES,
  maxBytes = 1 << 20,
): Promise<unknown> {
  const text = await fetchSmall(url, { accept: 'application/json' }, deadlines, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new FeedDownloadError(url, `not JSON: ${(error as Error).message}`);
  }
}

/** The hex digest a `.sha256` file publishes (its first word). */
async function publishedDigest(url: string, deadlines: DownloadDeadlines): Promise<string> {
  const digest = digestIn(await fetchSmall(url, {}, deadlines, 4096));
  if (!digest) throw new FeedDownloadError(url, 'not a sha256 digest');
  return digest;
}

/** The digest a `.sha256` file's text publishes (its first word, a hex sha256), if it is one. */
export function digestIn(text: string): string | undefined {
  const digest = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return /^[0-9a-f]{64}$/.test(digest) ? digest : undefined;
}

/** A short answer's body as text: at most `maxBytes`, within the deadlines; anything but 200 throws. */
async function fetchSmall(
  url: string,
  headers: Record<string, string>,
  deadlines: DownloadDeadlines,
  maxBytes: number,
): Promise<string> {
  const answer = await fetchText(url, { headers, deadlines, maxBytes });
  if (answer.status !== 200) throw new FeedDownloadError(url, `HTTP ${answer.status}`);
  return answer.text;
}

/** A short answer: its status, the headers a polite client reads, and its body as text. */
export interface TextAnswer {
  readonly status: number;
  /** `Retry-After` as sent (seconds or an HTTP date), on any status. */
  readonly retryAfter?: string;
  readonly lastModified?: string;
  readonly text: string;
}

/**
 * A GET of a short document whatever its status: the body of a 200 read whole (at most `maxBytes`,
 * within the deadlines), any other status's body discarded unread.
 */
export async function fetchText(
  url: string,
  opts: { headers?: Record<string, string>; deadlines?: DownloadDeadlines; maxBytes: number },
): Promise<TextAnswer> {
  const deadlines = opts.deadlines ?? DEFAULT_DEADLINES;
  const res = await get(url, { 'accept-encoding': 'identity', ...opts.headers }, deadlines);
  const status = res.statusCode ?? 0;
  const about = {
    status,
    retryAfter: header(res, 'retry-after'),
    lastModified: header(res, 'last-modified'),
  };
  if (status !== 200) {
    res.resume();
    return { ...about, text: '' };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  const overall = setTimeout(
    () => res.destroy(new Error(`the answer took longer than ${deadlines.totalMs} ms`)),
    deadlines.totalMs,
  );
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > opts.maxBytes) {
        res.destroy();
        throw new FeedDownloadError(url, `an answer longer than ${opts.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FeedDownloadError) throw error;
    throw new FeedDownloadError(url, `cut after ${bytes} bytes: ${(error as Error).message}`);
  } finally {
    clearTimeout(overall);
  }
  return { ...about, text: Buffer.concat(chunks).toString('utf8') };
}

/** A GET whose headers must arrive, and whose body must keep arriving, within `idleMs`. */
function get(
  url: string,
  headers: Record<string, string>,
  deadlines: DownloadDeadlines,
): Promise<IncomingMessage> {
  const target = new URL(url);
  const request =
    target.protocol === 'https:' ? httpsRequest : target.protocol === 'http:' ? httpRequest : undefined;
  if (!request) return Promise.reject(new FeedDownloadError(url, `unsupported protocol ${target.protocol}`));
  return new Promise((resolve, reject) => {
    const req = request(target, {
      method: 'GET',
      headers: { 'user-agent': FEEDS_USER_AGENT, ...headers },
    });
    req.setTimeout(deadlines.idleMs, () => req.destroy(new Error(`no answer for ${deadlines.idleMs} ms`)));
    // The socket's timeout starts once it is connected: the name lookup, the connection and the
    // whole head of the answer (a server trickling headers) are bounded from the start.
    const head = setTimeout(
      () => req.destroy(new Error(`no answer for ${deadlines.idleMs} ms`)),
      deadlines.idleMs,
    );
    req.on('error', (error) => {
      clearTimeout(head);
      reject(new FeedDownloadError(url, error.message));
    });
    // The socket's idle timeout covers the body too, until the response ends.
    req.on('response', (res) => {
      clearTimeout(head);
      resolve(res);
    });
    req.end();
  });
}

function fail(url: string, res: IncomingMessage, why: string): FeedDownloadError {
  res.resume();
  return new FeedDownloadError(url, why);
}

function header(res: IncomingMessage, name: string): string | undefined {
  const v = res.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const metaOf = (file: string) => `${file}.meta.json`;

async function readValidators(file: string): Promise<Validators> {
  try {
    return JSON.parse(await readFile(metaOf(file), 'utf8')) as Validators;
  } catch {
    return {};
  }
}

/** Written beside the file by a rename, so a kill leaves the old validators or the new. */
async function writeValidators(file: string, validators: Validators): Promise<void> {
  await writeFileAtomically(metaOf(file), JSON.stringify(validators));
}

async function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

/** The hex sha256 of a file's bytes. */
export async function digestOf(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function discard(part: string): Promise<void> {
  await rm(part, { force: true });
  await rm(metaOf(part), { force: true });
}
