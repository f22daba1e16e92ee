import { BULK_FORMATS, BulkFormat, HISTORY_FORMAT, LatestFormat } from '@tcg/domain';
import { csvHeader, csvLines, ndjsonLines, toBulkRow } from '@tcg/rendering';
import { sql } from 'kysely';
import type { ClientBase } from 'pg';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import { readDataVersion } from '../data-version';
import { db } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { execute, rowOf, rowsOf } from '../sql/run';
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

const CARD_PAGE = rowSchema('bulk card page', { uuid: 'string', sort_key: 'string' });
type CardPageRow = RowOf<typeof CARD_PAGE>;
const SNAPSHOT_ID = rowSchema('bulk snapshot id', { id: 'string' });
const COUNT = rowSchema('bulk row count', { n: 'int' });
/** A page's rows as `@tcg/rendering`'s `BulkSourceRow` names them. */
const SOURCE_ROW = rowSchema('bulk rows', {
  game_id: 'string',
  set_id: 'string',
  set_name: 'string',
  card_id: 'string',
  card_uuid: 'string',
  name: 'string',
  number: 'string?',
  rarity: 'string?',
  sealed: 'boolean',
  vendor_id: 'string?',
  openset_id: 'string?',
  imagedb_id: 'string?',
  variant_id: 'string',
  variant_uuid: 'string',
  type: 'string',
  condition: 'string?',
  printing: 'string',
  language: 'string',
  vendor_sku_id: 'string?',
  grading_company: 'string?',
  grade: 'float?',
  grade_label: 'string?',
  grading_qualifier: 'string?',
  region: 'string?',
  currency: 'string?',
  stats: 'string?',
});

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
    const ids = {} as Record<BulkFormat, string>;
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
      await execute(client, dropExpiredGameArchivesStatement(gameId, archive));
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
    for (const statement of generationDeadlineStatements()) await execute(client, statement);
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

/** The generation's deadlines, set for its transaction only. */
export function generationDeadlineStatements() {
  return [
    sql`SET LOCAL statement_timeout = ${sql.lit(STATEMENT_TIMEOUT_MS)}`,
    sql`SET LOCAL idle_in_transaction_session_timeout = ${sql.lit(IDLE_IN_TRANSACTION_TIMEOUT_MS)}`,
  ];
}

/** A snapshot's row, a placeholder until its transaction ends; nobody sees it before it commits. */
export function placeholderStatement(
  gameId: string,
  format: LatestFormat,
  dataVersion: number,
  archiveDate: string | null,
) {
  return db
    .insertInto('bulk_snapshots')
    .values({
      game_id: gameId,
      format,
      data_version: dataVersion,
      generated_at: sql<Date>`now()`,
      bytes: sql.lit(0),
      row_count: sql.lit(0),
      sha256: sql.lit(''),
      chunks: sql.lit(0),
      archive_date: sql<string | null>`${archiveDate}::date`,
    })
    .returning(sql<string>`id::text`.as('id'));
}

/** The placeholder's id (a bigint, as text). */
async function placeholder(
  client: ClientBase,
  gameId: string,
  format: LatestFormat,
  dataVersion: number,
  archiveDate: string | null,
): Promise<string> {
  const row = await rowOf(
    client,
    SNAPSHOT_ID,
    placeholderStatement(gameId, format, dataVersion, archiveDate),
  );
  return row.id;
}

export function storePartStatement(snapshotId: string, seq: number, part: Buffer) {
  return db.insertInto('bulk_chunks').values({ snapshot_id: snapshotId, seq, data: part });
}

function storeParts(client: ClientBase, snapshotId: string) {
  return async (seq: number, part: Buffer) => {
    await execute(client, storePartStatement(snapshotId, seq, part));
  };
}

/** The snapshot's size, checksum and counts, once its file is whole. */
export function finishStatement(id: string, f: GzipFile, rows: number) {
  return db
    .updateTable('bulk_snapshots')
    .set({ bytes: f.bytes, row_count: rows, sha256: f.sha256, chunks: f.chunks })
    .where('id', '=', id);
}

async function finish(client: ClientBase, id: string, f: GzipFile, rows: number): Promise<void> {
  await execute(client, finishStatement(id, f, rows));
}

/** Deletes the game's archives of `keepDays` or more days before `archive.date`. */
export function dropExpiredGameArchivesStatement(gameId: string, archive: ArchiveOptions) {
  return db
    .deleteFrom('bulk_snapshots')
    .where('game_id', '=', gameId)
    .where('archive_date', '<=', sql<Date>`${archive.date}::date - ${archive.keepDays}::int`);
}

/** The game's files beyond the newest `SNAPSHOTS_KEPT` of each format; archives are kept by day. */
export function deleteOlderStatement(gameId: string) {
  return db
    .deleteFrom('bulk_snapshots as b')
    .where('b.game_id', '=', gameId)
    .where('b.archive_date', 'is', null)
    .where((eb) =>
      eb(
        'b.id',
        'not in',
        eb
          .selectFrom('bulk_snapshots as k')
          .select('k.id')
          .whereRef('k.game_id', '=', 'b.game_id')
          .whereRef('k.format', '=', 'b.format')
          .where('k.archive_date', 'is', null)
          .orderBy('k.id', 'desc')
          .limit(sql.lit(SNAPSHOTS_KEPT)),
      ),
    );
}

async function deleteOlder(client: ClientBase, gameId: string): Promise<void> {
  await execute(client, deleteOlderStatement(gameId));
}

/** A keyset page of the game's cards on (sort_key, uuid), after `after` when given. */
export function cardPageStatement(gameId: string, after: CardPageRow | undefined, limit: number) {
  const cards = db
    .selectFrom('cards')
    .select([sql<string>`uuid::text`.as('uuid'), 'sort_key'])
    .where('game_id', '=', gameId);
  return (
    after ? cards.where(sql<boolean>`(sort_key, uuid) > (${after.sort_key}, ${after.uuid}::uuid)`) : cards
  )
    .orderBy('sort_key')
    .orderBy('uuid')
    .limit(sql.lit(limit));
}

function cardPage(client: ClientBase, gameId: string, after: CardPageRow | undefined, limit: number) {
  return rowsOf(client, CARD_PAGE, cardPageStatement(gameId, after, limit));
}

/**
 * The page's variants with their card and set, and each region's stored statistics (NA first),
 * in the cards' browse order, then by variant slug as v1 lists a card's variants.
 */
export function pageRowsStatement(cardUuids: readonly string[]) {
  return sql`SELECT c.game_id, s.id AS set_id, s.name AS set_name, c.id AS card_id, c.uuid::text AS card_uuid,
            c.name, c.number, c.rarity, c.sealed, c.vendor_id, c.openset_id, c.imagedb_id,
            v.id AS variant_id, v.uuid::text AS variant_uuid, v.type, v.condition, v.printing,
            v.language, v.vendor_sku_id, v.grading_company, v.grade::float8 AS grade, v.grade_label,
            v.grading_qualifier, vp.region, vp.currency, vp.stats::text AS stats
     FROM unnest(${cardUuids}::uuid[]) WITH ORDINALITY AS page (uuid, ord)
     JOIN cards c ON c.uuid = page.uuid
     JOIN sets s ON s.uuid = c.set_uuid
     JOIN variants v ON v.card_uuid = c.uuid
     LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid
     ORDER BY page.ord, v.id, vp.region <> 'NA', vp.region`;
}

function pageRows(client: ClientBase, cardUuids: readonly string[]) {
  return rowsOf(client, SOURCE_ROW, pageRowsStatement(cardUuids));
}

export function bulkRowCountStatement(gameId: string) {
  return db
    .selectFrom('cards as c')
    .innerJoin('variants as v', 'v.card_uuid', 'c.uuid')
    .leftJoin('variant_prices as vp', 'vp.variant_uuid', 'v.uuid')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('c.game_id', '=', gameId);
}

/** The rows a snapshot of the game will have (counted apart from its read: for progress only). */
export async function bulkRowCount(client: ClientBase, gameId: string): Promise<number> {
  return (await rowOf(client, COUNT, bulkRowCountStatement(gameId))).n;
}
