import { BULK_FORMATS, BulkFormat, HISTORY_FORMAT, LatestFormat } from '@tcg/domain';
import { BulkSourceRow, csvHeader, csvLines, ndjsonLines, toBulkRow } from '@tcg/rendering';
import type { ClientBase } from 'pg';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import { readDataVersion } from '../data-version';
import { GzipChunks, GzipFile } from './gzip-chunks';
import { historyLines } from './history-rows';

/** Cards read per page (about 14 rows per card at full): two short indexed statements. */
const CARDS_PER_PAGE = 20;
/**
 * Cards per page of the history file: about 11 series of 730 days per card at full, so a page is
 * some 60,000 observations reduced on the event loop between two yields (a few milliseconds).
 */
const HISTORY_CARDS_PER_PAGE = 5;
/**
 * Rows parsed, presented and serialised on the event loop between two yields to it: small enough
 * that a service generating in the background keeps its event-loop delay to a few milliseconds
 * and still answers its requests promptly (the figures are in the commit that chose it).
 */
const ROWS_PER_SLICE = 50;
/** Snapshots kept per game and format: the newest, and the one before for downloads under way. */
export const SNAPSHOTS_KEPT = 2;
/** Any one statement of a generation; a page reads a few hundred rows by index. */
const STATEMENT_TIMEOUT_MS = 60_000;
/** The session is idle in its transaction only while zlib works on a page: seconds at most. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/**
 * One generation at a time across every instance and tool: a session-level advisory lock on
 * this key (an arbitrary constant, "bulk" in ASCII).
 */
export const BULK_LOCK_KEY = 0x62756c6b;

export interface GameSnapshotResult {
  readonly gameId: string;
  readonly dataVersion: number;
  readonly rows: number;
  readonly files: Readonly<Record<BulkFormat, GzipFile>>;
}

/** A generation that is also its game's archive of a UTC day. */
export interface ArchiveOptions {
  /** YYYY-MM-DD. */
  readonly date: string;
  /** Archives of days more than this many before `date` are deleted in the same transaction. */
  readonly keepDays: number;
}

export interface GenerateOptions {
  /** Rows done so far in this game, after each page. */
  readonly onPage?: (rows: number) => void | Promise<void>;
  /** Checked between pages: an aborted generation rolls back and throws the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * After each page, rest this many times as long as the page took (0, the default: none). A
   * service generating in the background passes 1 or more, so the generation takes at most half
   * of what one core gives and its requests keep the rest: slower snapshots, steady latency.
   */
  readonly restRatio?: number;
  /** Makes the snapshots the game's archive of this day. */
  readonly archive?: ArchiveOptions;
}

interface CardPageRow {
  readonly uuid: string;
  readonly sort_key: string;
}

/**
 * Writes one game's snapshots, both formats from one read, in one REPEATABLE READ transaction on
 * `client`: the rows, the data version they are tagged with and the generation time all come
 * from one consistent view of the catalogue; each format's parts are inserted as they fill; the
 * snapshot rows get their size, checksum and counts, older snapshots beyond `SNAPSHOTS_KEPT` are
 * deleted, and it all commits at once. Killed at any point, nothing of it is visible. Cards are
 * read by keyset pages on (sort_key, uuid) (the game's browse index), each page's variants and
 * stored statistics in a second statement: memory holds one page whatever the game's size.
 */
export async function generateGameSnapshots(
  client: ClientBase,
  gameId: string,
  options: GenerateOptions = {},
): Promise<GameSnapshotResult> {
  return inGeneration(client, async (dataVersion, writers) => {
    const ids = {} as Record<BulkFormat, number>;
    const archive = options.archive;
    for (const format of BULK_FORMATS)
      ids[format] = await placeholder(client, gameId, format, dataVersion, archive?.date ?? null);
    const store = (format: BulkFormat) => storeParts(client, ids[format]);
    const ndjson = new GzipChunks(store('ndjson.gz'));
    const csv = new GzipChunks(store('csv.gz'));
    writers.push(ndjson, csv);
    await csv.write(csvHeader());

    const rows = await forEachCardPage(client, gameId, CARDS_PER_PAGE, options, async (cardUuids) => {
      const source = await pageRows(client, cardUuids);
      for (let at = 0; at < source.length; at += ROWS_PER_SLICE) {
        const slice = source.slice(at, at + ROWS_PER_SLICE).map(toBulkRow);
        // Both files in step: each holds one slice at a time.
        await Promise.all([ndjson.write(ndjsonLines(slice)), csv.write(csvLines(slice))]);
        await yieldToLoop();
      }
      return source.length;
    });

    const files = { 'ndjson.gz': await ndjson.end(), 'csv.gz': await csv.end() };
    for (const format of BULK_FORMATS) await finish(client, ids[format], files[format], rows);
    if (archive)
      // Within the retention: the day and the `keepDays - 1` before it.
      await client.query(
        `DELETE FROM bulk_snapshots WHERE game_id = $1 AND archive_date <= $2::date - $3::int`,
        [gameId, archive.date, archive.keepDays],
      );
    await deleteOlder(client, gameId);
    return { gameId, dataVersion, rows, files };
  });
}

export interface GameHistoryResult {
  readonly gameId: string;
  readonly dataVersion: number;
  readonly lines: number;
  readonly file: GzipFile;
}

/**
 * Writes the game's full-history file (history-rows.ts: every variant's daily series per region)
 * in a REPEATABLE READ transaction of its own, as `generateGameSnapshots` writes the snapshots:
 * cards by keyset pages, parts stored as they fill, the older files beyond `SNAPSHOTS_KEPT`
 * deleted, all committed at once; killed or aborted, nothing of it is visible. Never archived: each
 * file holds every day of the ones before.
 */
export async function generateGameHistory(
  client: ClientBase,
  gameId: string,
  options: Omit<GenerateOptions, 'archive'> = {},
): Promise<GameHistoryResult> {
  return inGeneration(client, async (dataVersion, writers) => {
    const id = await placeholder(client, gameId, HISTORY_FORMAT, dataVersion, null);
    const out = new GzipChunks(storeParts(client, id));
    writers.push(out);
    const lines = await forEachCardPage(
      client,
      gameId,
      HISTORY_CARDS_PER_PAGE,
      options,
      async (cardUuids) => {
        const page = await historyLines(client, cardUuids);
        if (page.text.length > 0) await out.write(page.text);
        await yieldToLoop();
        return page.lines;
      },
    );
    const file = await out.end();
    await finish(client, id, file, lines);
    await deleteOlder(client, gameId);
    return { gameId, dataVersion, lines, file };
  });
}

/**
 * Runs a generation in one REPEATABLE READ transaction on `client`, with its statement and idle
 * deadlines, given the data version it reads at: committed when `work` returns; rolled back, and
 * the gzip writers it registered destroyed, when it throws.
 */
async function inGeneration<T>(
  client: ClientBase,
  work: (dataVersion: number, writers: GzipChunks[]) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  const writers: GzipChunks[] = [];
  try {
    await client.query(`SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${IDLE_IN_TRANSACTION_TIMEOUT_MS}`);
    const result = await work(await readDataVersion(client), writers);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    for (const w of writers) w.destroy();
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * The game's cards by keyset pages of `limit` on (sort_key, uuid) (its browse index), each page's
 * UUIDs given to `page`, which returns the rows it wrote: between pages the abort signal is checked,
 * `onPage` told the rows so far, and the rest taken (`restRatio` times the page's time). Returns
 * the rows written.
 */
async function forEachCardPage(
  client: ClientBase,
  gameId: string,
  limit: number,
  options: Omit<GenerateOptions, 'archive'>,
  page: (cardUuids: string[]) => Promise<number>,
): Promise<number> {
  let rows = 0;
  let after: CardPageRow | undefined;
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason;
    const pageStarted = performance.now();
    const cards = await cardPage(client, gameId, after, limit);
    if (cards.length === 0) return rows;
    after = cards[cards.length - 1];
    rows += await page(cards.map((c) => c.uuid));
    await options.onPage?.(rows);
    const rest = (performance.now() - pageStarted) * (options.restRatio ?? 0);
    if (rest > 0) await sleep(rest);
  }
}

/** A snapshot's row, a placeholder until its transaction ends; nobody sees it before it commits. */
async function placeholder(
  client: ClientBase,
  gameId: string,
  format: LatestFormat,
  dataVersion: number,
  archiveDate: string | null,
): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO bulk_snapshots (game_id, format, data_version, generated_at, bytes, row_count, sha256, chunks, archive_date)
     VALUES ($1, $2, $3, now(), 0, 0, '', 0, $4::date) RETURNING id::text`,
    [gameId, format, dataVersion, archiveDate],
  );
  return Number(rows[0]!.id);
}

function storeParts(client: ClientBase, snapshotId: number) {
  return async (seq: number, part: Buffer) => {
    await client.query('INSERT INTO bulk_chunks (snapshot_id, seq, data) VALUES ($1, $2, $3)', [
      snapshotId,
      seq,
      part,
    ]);
  };
}

async function finish(client: ClientBase, id: number, f: GzipFile, rows: number): Promise<void> {
  await client.query(
    `UPDATE bulk_snapshots SET bytes = $2, row_count = $3, sha256 = $4, chunks = $5 WHERE id = $1`,
    [id, f.bytes, rows, f.sha256, f.chunks],
  );
}

/** The game's files beyond the newest `SNAPSHOTS_KEPT` of each format; archives are kept by day. */
async function deleteOlder(client: ClientBase, gameId: string): Promise<void> {
  await client.query(
    `DELETE FROM bulk_snapshots b
     WHERE b.game_id = $1 AND b.archive_date IS NULL
       AND b.id NOT IN (SELECT k.id FROM bulk_snapshots k
                        WHERE k.game_id = b.game_id AND k.format = b.format AND k.archive_date IS NULL
                        ORDER BY k.id DESC LIMIT ${SNAPSHOTS_KEPT})`,
    [gameId],
  );
}

async function cardPage(client: ClientBase, gameId: string, after: CardPageRow | undefined, limit: number) {
  const { rows } = await client.query<CardPageRow>(
    after
      ? `SELECT uuid::text, sort_key FROM cards
         WHERE game_id = $1 AND (sort_key, uuid) > ($2, $3::uuid)
         ORDER BY sort_key, uuid LIMIT ${limit}`
      : `SELECT uuid::text, sort_key FROM cards
         WHERE game_id = $1 ORDER BY sort_key, uuid LIMIT ${limit}`,
    after ? [gameId, after.sort_key, after.uuid] : [gameId],
  );
  return rows;
}

/**
 * The page's variants with their card and set, and each region's stored statistics (NA first),
 * in the cards' browse order, then by variant slug as v1 lists a card's variants.
 */
async function pageRows(client: ClientBase, cardUuids: readonly string[]): Promise<BulkSourceRow[]> {
  const { rows } = await client.query<BulkSourceRow>(
    `SELECT c.game_id, s.id AS set_id, s.name AS set_name, c.id AS card_id, c.uuid::text AS card_uuid,
            c.name, c.number, c.rarity, c.sealed, c.vendor_id, c.openset_id, c.imagedb_id,
            v.id AS variant_id, v.uuid::text AS variant_uuid, v.type, v.condition, v.printing,
            v.language, v.vendor_sku_id, v.grading_company, v.grade::float8 AS grade, v.grade_label,
            v.grading_qualifier, vp.region, vp.currency, vp.stats::text AS stats
     FROM unnest($1::uuid[]) WITH ORDINALITY AS page (uuid, ord)
     JOIN cards c ON c.uuid = page.uuid
     JOIN sets s ON s.uuid = c.set_uuid
     JOIN variants v ON v.card_uuid = c.uuid
     LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid
     ORDER BY page.ord, v.id, vp.region <> 'NA', vp.region`,
    [cardUuids],
  );
  return rows;
}

/** The rows a snapshot of the game will have (counted apart from its read: for progress only). */
export async function bulkRowCount(client: ClientBase, gameId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cards c
     JOIN variants v ON v.card_uuid = c.uuid
     LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid
     WHERE c.game_id = $1`,
    [gameId],
  );
  return rows[0]!.n;
}
