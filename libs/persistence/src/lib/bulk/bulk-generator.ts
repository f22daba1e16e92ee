import { BULK_FORMATS, BulkFormat, HISTORY_FORMAT, LatestFormat } from '@tcg/domain';
import { csvHeader, csvLines, ndjsonLines, toBulkRow } from '@tcg/rendering';
import { sql } from 'kysely';
import type { ClientBase } from 'pg';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import { readDataVersion } from '../db/data-version';
import { db } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { execute, rowOf, rowsOf, type Connection, type Statement } from '../sql/run';
import { GzipChunks, GzipFile } from './gzip-chunks';
import { historyLines, type SeriesTally } from './history-rows';
import { PreviousHistoryFile } from './previous-history';
import { inClientTransaction } from '../db/transaction';

/** Cards read per page (about 14 rows per card at full): two short indexed statements. */
const CARDS_PER_PAGE = 20;
/**
 * Cards per page of a history file read whole: about 11 series of 730 days per card at full, so a
 * page is some 60,000 observations reduced on the event loop between two yields (a few
 * milliseconds). Built on the previous file, a page reads a month or two per series: pages of
 * `CARDS_PER_PAGE`.
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
  /**
   * Where the catalogue is read, one short statement at a time: the worker passes its read
   * routing (a replica where one is configured). Default: the generation's own connection.
   */
  readonly reads?: Connection;
  /** Rows done so far in this game, after each page. */
  readonly onPage?: (rows: number) => void | Promise<void>;
  /** Checked between pages: an aborted generation deletes what it wrote and throws the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * After each page, rest this many times as long as the page took (0, the default: none). A
   * service generating in the background passes 1 or more, so the generation takes at most half
   * of what one core gives and its requests keep the rest: slower snapshots, steady latency.
   */
  readonly restRatio?: number;
  /** Cards per keyset page, instead of the generation's own choice (the tests page small games). */
  readonly cardsPerPage?: number;
  /** Makes the snapshots the game's archive of this day. */
  readonly archive?: ArchiveOptions;
}

/**
 * The catalogue changed while a generation read it: its file would mix two data versions, so it
 * is deleted unfinished. The new version makes the game due again; the next generation writes it.
 */
export class GenerationSuperseded extends Error {
  constructor(
    readonly readAt: number,
    readonly nowAt: number,
  ) {
    super(`the data version moved from ${readAt} to ${nowAt} while the file was written`);
    this.name = 'GenerationSuperseded';
  }
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
 * Writes one game's snapshots, both formats from one read of the catalogue, without holding a
 * transaction: cards are read by keyset pages on (sort_key, uuid) (the game's browse index), each
 * page's variants and stored statistics in a second statement, one short statement at a time
 * from `options.reads`; each format's parts are committed as they fill, under snapshot rows that
 * nobody reads while `complete` is false. At the end, if the data version is still the one read
 * first, one short transaction gives the rows their size, checksum and counts, makes them
 * complete, and deletes the older snapshots beyond `SNAPSHOTS_KEPT`; if it moved, the file would
 * mix two versions and is deleted (`GenerationSuperseded`). Killed at any point, nothing of it is
 * read, and the next generation deletes what it left (`dropUnfinishedSnapshots`). Memory holds one
 * page whatever the game's size.
 */
export async function generateGameSnapshots(
  client: ClientBase,
  gameId: string,
  options: GenerateOptions = {},
): Promise<GameSnapshotResult> {
  const reads = options.reads ?? client;
  return inSteps(client, reads, async (dataVersion, written) => {
    const ids = {} as Record<BulkFormat, string>;
    const archive = options.archive;
    for (const format of BULK_FORMATS)
      ids[format] = await written.placeholder(gameId, format, dataVersion, archive?.date ?? null);
    const ndjson = written.file(ids['ndjson.gz']);
    const csv = written.file(ids['csv.gz']);
    await csv.write(csvHeader());

    const perPage = options.cardsPerPage ?? CARDS_PER_PAGE;
    const rows = await forEachCardPage(reads, gameId, perPage, options, async (cardUuids) => {
      const source = await pageRows(reads, cardUuids);
      for (let at = 0; at < source.length; at += ROWS_PER_SLICE) {
        const slice = source.slice(at, at + ROWS_PER_SLICE).map(toBulkRow);
        // Both files in step: each holds one slice at a time.
        await Promise.all([ndjson.write(ndjsonLines(slice)), csv.write(csvLines(slice))]);
        await yieldToLoop();
      }
      return source.length;
    });

    const files = { 'ndjson.gz': await ndjson.end(), 'csv.gz': await csv.end() };
    return {
      value: { gameId, dataVersion, rows, files },
      finish: [
        ...BULK_FORMATS.map((format) => finishStatement(ids[format], files[format], rows)),
        // Within the retention: the day and the `keepDays - 1` before it.
        ...(archive ? [dropExpiredGameArchivesStatement(gameId, archive)] : []),
        deleteOlderStatement(gameId),
      ],
    };
  });
}

export interface GameHistoryResult {
  readonly gameId: string;
  readonly dataVersion: number;
  readonly lines: number;
  readonly file: GzipFile;
  /** The data version of the previous file it was built from, or null: read whole. */
  readonly builtOn: number | null;
  /** Its series' lines: taken from the previous file, extended with the months since, read whole. */
  readonly series: Readonly<SeriesTally>;
}

/**
 * Writes the game's full-history file (history-rows.ts: every variant's daily series per region)
 * the way `generateGameSnapshots` writes the snapshots: cards by keyset pages read one statement
 * at a time, parts committed as they fill under a row nobody reads until the last short
 * transaction completes it and deletes the older files beyond `SNAPSHOTS_KEPT`; superseded, killed
 * or aborted, nothing of it is read. Never archived: each file holds every day of the ones before.
 *
 * Built from the game's previous file where it has one (`PreviousHistoryFile`, read as the pages
 * go): a series' line is read again only from the first month written since that file's data
 * version, so a day's file reads a month per series rather than every stored month.
 */
export async function generateGameHistory(
  client: ClientBase,
  gameId: string,
  options: Omit<GenerateOptions, 'archive'> = {},
): Promise<GameHistoryResult> {
  const reads = options.reads ?? client;
  return inSteps(client, reads, async (dataVersion, written) => {
    // Only on a file whose version the reads have reached: lines read from a replica behind it
    // would be older than the previous file's (the routing should never be; this does not assume).
    const found = await PreviousHistoryFile.open(client, gameId);
    const previous = found && found.version <= dataVersion ? found : null;
    try {
      const id = await written.placeholder(gameId, HISTORY_FORMAT, dataVersion, null);
      const out = written.file(id);
      const perPage = options.cardsPerPage ?? (previous ? CARDS_PER_PAGE : HISTORY_CARDS_PER_PAGE);
      const series: SeriesTally = { kept: 0, extended: 0, readWhole: 0 };
      const lines = await forEachCardPage(reads, gameId, perPage, options, async (cardUuids) => {
        const page = await historyLines(reads, cardUuids, previous ?? undefined, series);
        if (page.text.length > 0) await out.write(page.text);
        await yieldToLoop();
        return page.lines;
      });
      const file = await out.end();
      return {
        value: { gameId, dataVersion, lines, file, builtOn: previous?.version ?? null, series },
        finish: [finishStatement(id, file, lines), deleteOlderStatement(gameId)],
      };
    } finally {
      found?.close();
    }
  });
}

/** What a generation writes as it goes: its unfinished snapshot rows and their files' parts. */
interface Written {
  /** Inserts an unfinished snapshot row (committed at once, read by nobody) and returns its id. */
  placeholder(
    gameId: string,
    format: LatestFormat,
    dataVersion: number,
    archiveDate: string | null,
  ): Promise<string>;
  /** A gzip file whose parts are committed under snapshot `id` as they fill. */
  file(id: string): GzipChunks;
}

/**
 * Runs a generation in steps, each statement committed on its own: reads the data version on
 * `reads`, lets `work` write its unfinished rows and parts, then, if the version on `reads` has
 * not moved, runs `work`'s finishing statements in one short transaction on `client`. When `work`
 * throws, the version moved or the finish fails, the gzip writers are destroyed and the rows it
 * inserted deleted with their parts (best effort: what a kill leaves, `dropUnfinishedSnapshots`
 * deletes).
 */
async function inSteps<T>(
  client: ClientBase,
  reads: Connection,
  work: (dataVersion: number, written: Written) => Promise<{ value: T; finish: Statement[] }>,
): Promise<T> {
  const placeholders: string[] = [];
  const writers: GzipChunks[] = [];
  const written: Written = {
    placeholder: async (gameId, format, dataVersion, archiveDate) => {
      const row = await rowOf(
        client,
        SNAPSHOT_ID,
        placeholderStatement(gameId, format, dataVersion, archiveDate),
      );
      placeholders.push(row.id);
      return row.id;
    },
    file: (id) => {
      const writer = new GzipChunks(storeParts(client, id));
      writers.push(writer);
      return writer;
    },
  };
  try {
    const dataVersion = await readDataVersion(reads);
    const { value, finish } = await work(dataVersion, written);
    const now = await readDataVersion(reads);
    if (now !== dataVersion) throw new GenerationSuperseded(dataVersion, now);
    await inClientTransaction(client, async (c) => {
      for (const statement of finish) await execute(c, statement);
    });
    return value;
  } catch (error) {
    for (const w of writers) w.destroy();
    if (placeholders.length > 0)
      await execute(client, dropSnapshotsStatement(placeholders)).catch(() => undefined);
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
  client: Connection,
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

/** A snapshot's row, unfinished (`complete` false): nobody reads it until its generation ends. */
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
      complete: sql.lit(false),
    })
    .returning(sql<string>`id::text`.as('id'));
}

export function storePartStatement(snapshotId: string, seq: number, part: Buffer) {
  return db.insertInto('bulk_chunks').values({ snapshot_id: snapshotId, seq, data: part });
}

function storeParts(client: ClientBase, snapshotId: string) {
  return async (seq: number, part: Buffer) => {
    await execute(client, storePartStatement(snapshotId, seq, part));
  };
}

/** The snapshot's size, checksum and counts, once its file is whole: from now on it is read. */
export function finishStatement(id: string, f: GzipFile, rows: number) {
  return db
    .updateTable('bulk_snapshots')
    .set({ bytes: f.bytes, row_count: rows, sha256: f.sha256, chunks: f.chunks, complete: sql.lit(true) })
    .where('id', '=', id);
}

/** Deletes these snapshots (a generation's unfinished rows), with their parts. */
export function dropSnapshotsStatement(ids: readonly string[]) {
  return db.deleteFrom('bulk_snapshots').where(sql<boolean>`id = ANY(${ids}::bigint[])`);
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
    .where('b.complete', '=', sql.lit(true))
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
          .where('k.complete', '=', sql.lit(true))
          .orderBy('k.id', 'desc')
          .limit(sql.lit(SNAPSHOTS_KEPT)),
      ),
    );
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

function cardPage(client: Connection, gameId: string, after: CardPageRow | undefined, limit: number) {
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

function pageRows(client: Connection, cardUuids: readonly string[]) {
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
