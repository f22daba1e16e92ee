import {
  BULK_FORMATS,
  BulkFormat,
  BulkSnapshot,
  BulkSnapshotStore,
  HISTORY_FORMAT,
  isLatestFormat,
  LatestFormat,
} from '@tcg/domain';
import { sql } from 'kysely';
import type { ClientBase } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { db, shared } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { execute, rowOf, rowsOf, type Connection } from '../sql/run';
import {
  advisoryLockStatement,
  advisoryUnlockStatement,
  TRIED_LOCK,
  tryAdvisoryLockStatement,
} from '../db/transaction';

/**
 * One generation at a time across every instance and tool: a session-level advisory lock on
 * this key (an arbitrary constant, "bulk" in ASCII).
 */
export const BULK_LOCK_KEY = 0x62756c6b;

const SNAPSHOT = rowSchema('bulk snapshot', {
  id: 'string',
  game_id: 'string',
  format: 'string',
  archive_date: 'string?',
  data_version: 'string',
  generated_at: 'float',
  bytes: 'string',
  row_count: 'string',
  sha256: 'string',
  chunks: 'int',
});
const CHUNK = rowSchema('bulk chunk', { data: 'bytes' });
const CHUNK_SIZE = rowSchema('bulk chunk sizes', { size: 'int' });
const GAME = rowSchema('bulk games', { id: 'string' });
const DAY = rowSchema('bulk archive day', { day: 'string' });

/** A snapshot's columns: bigints and the day as text, the generation time in whole Unix seconds. */
const SNAPSHOT_COLUMNS = [
  sql<string>`id::text`.as('id'),
  'game_id',
  'format',
  sql<string | null>`archive_date::text`.as('archive_date'),
  sql<string>`data_version::text`.as('data_version'),
  sql<number>`floor(extract(epoch FROM generated_at))::float8`.as('generated_at'),
  sql<string>`bytes::text`.as('bytes'),
  sql<string>`row_count::text`.as('row_count'),
  'sha256',
  'chunks',
] as const;

function toSnapshot(r: RowOf<typeof SNAPSHOT>): BulkSnapshot {
  // The table's CHECK constraint admits the latest formats only.
  if (!isLatestFormat(r.format)) throw new TypeError(`bulk snapshot ${r.id}: unknown format ${r.format}`);
  return {
    id: Number(r.id),
    gameId: r.game_id,
    format: r.format,
    archiveDate: r.archive_date,
    dataVersion: Number(r.data_version),
    generatedAt: r.generated_at,
    bytes: Number(r.bytes),
    rows: Number(r.row_count),
    sha256: r.sha256,
    chunks: r.chunks,
  };
}

/** The snapshots a reader may see: complete ones, never a generation's unfinished rows. */
function completeSnapshots() {
  return db.selectFrom('bulk_snapshots').where('complete', '=', sql.lit(true));
}

/** The newest snapshot of each game and format in `formats`, by game then format. */
export function latestSnapshotsStatement(formats: readonly LatestFormat[]) {
  return (
    completeSnapshots()
      .distinctOn(['game_id', 'format'])
      .select(SNAPSHOT_COLUMNS)
      // A game removed since (an interrupted first load is removed and redone) is not listed.
      .where('game_id', 'in', db.selectFrom('games').select('id'))
      .where(sql<boolean>`format = ANY(${formats}::text[])`)
      .orderBy('game_id')
      .orderBy('format')
      // Qualified: a bare `id` would sort the selected `id::text`, putting snapshot 99 after 100.
      .orderBy('bulk_snapshots.id', 'desc')
  );
}

/** Every archived snapshot of a game still listed, the latest day first, then by game and format. */
export function archivedSnapshotsStatement() {
  return completeSnapshots()
    .select(SNAPSHOT_COLUMNS)
    .where('archive_date', 'is not', null)
    .where('game_id', 'in', db.selectFrom('games').select('id'))
    .orderBy('archive_date', 'desc')
    .orderBy('game_id')
    .orderBy('format');
}

/** The game's archive of `date` in `format`. */
export function archivedSnapshotStatement(date: string, gameId: string, format: BulkFormat) {
  return completeSnapshots()
    .select(SNAPSHOT_COLUMNS)
    .where('archive_date', '=', sql<Date>`${date}::date`)
    .where('game_id', '=', gameId)
    .where('format', '=', format);
}

/** The game's newest snapshot in `format`. */
export function latestSnapshotStatement(gameId: string, format: LatestFormat) {
  return (
    completeSnapshots()
      .select(SNAPSHOT_COLUMNS)
      .where('game_id', '=', gameId)
      .where('format', '=', format)
      // Qualified, as in latestSnapshotsStatement: the number, not its text, decides.
      .orderBy('bulk_snapshots.id', 'desc')
      .limit(sql.lit(1))
  );
}

/** Part `seq` of a snapshot. */
export function chunkStatement(snapshotId: number, seq: number) {
  return db
    .selectFrom('bulk_chunks')
    .select('data')
    .where('snapshot_id', '=', String(snapshotId))
    .where('seq', '=', seq);
}

/** The size of each part of a snapshot, in order. */
export function chunkSizesStatement(snapshotId: number) {
  return db
    .selectFrom('bulk_chunks')
    .select(sql<number>`octet_length(data)`.as('size'))
    .where('snapshot_id', '=', String(snapshotId))
    .orderBy('seq');
}

/** The game's newest complete snapshot in `format`, or null. */
export async function latestSnapshot(
  connection: Connection,
  gameId: string,
  format: LatestFormat,
): Promise<BulkSnapshot | null> {
  const rows = await rowsOf(connection, SNAPSHOT, latestSnapshotStatement(gameId, format));
  return rows[0] ? toSnapshot(rows[0]) : null;
}

/** Part `seq` of a snapshot, or null. */
export async function readChunk(
  connection: Connection,
  snapshotId: number,
  seq: number,
): Promise<Buffer | null> {
  const rows = await rowsOf(connection, CHUNK, chunkStatement(snapshotId, seq));
  return rows[0]?.data ?? null;
}

/** The stored snapshots, read through the service's pool: a few short statements per request. */
export class TypeOrmBulkSnapshotStore implements BulkSnapshotStore {
  constructor(private readonly ds: DataSource) {}

  async listLatest(formats: readonly LatestFormat[] = BULK_FORMATS): Promise<BulkSnapshot[]> {
    const rows = await rowsOf(poolOf(this.ds), SNAPSHOT, latestSnapshotsStatement(formats));
    return rows.map(toSnapshot);
  }

  async listArchives(): Promise<BulkSnapshot[]> {
    const rows = await rowsOf(poolOf(this.ds), SNAPSHOT, archivedSnapshotsStatement());
    return rows.map(toSnapshot);
  }

  async archived(date: string, gameId: string, format: BulkFormat): Promise<BulkSnapshot | null> {
    const rows = await rowsOf(poolOf(this.ds), SNAPSHOT, archivedSnapshotStatement(date, gameId, format));
    return rows[0] ? toSnapshot(rows[0]) : null;
  }

  latest(gameId: string, format: LatestFormat): Promise<BulkSnapshot | null> {
    return latestSnapshot(poolOf(this.ds), gameId, format);
  }

  readChunk(snapshotId: number, seq: number): Promise<Buffer | null> {
    return readChunk(poolOf(this.ds), snapshotId, seq);
  }

  async chunkSizes(snapshotId: number): Promise<number[] | null> {
    const rows = await rowsOf(poolOf(this.ds), CHUNK_SIZE, chunkSizesStatement(snapshotId));
    return rows.length > 0 ? rows.map((r) => r.size) : null;
  }
}

/** The games due a generation (`gamesToSnapshot`). */
export function gamesToSnapshotStatement(maxAgeSeconds: number, archiveDate: string | null) {
  const day = shared(archiveDate);
  return sql`SELECT g.id FROM games g
     WHERE (${day}::date IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM bulk_snapshots a WHERE a.archive_date = ${day}::date AND a.game_id = g.id AND a.complete))
        OR EXISTS (
       SELECT 1 FROM unnest(${BULK_FORMATS}::text[]) AS f (format)
       LEFT JOIN LATERAL (
         SELECT b.data_version, b.generated_at FROM bulk_snapshots b
         WHERE b.game_id = g.id AND b.format = f.format AND b.complete ORDER BY b.id DESC LIMIT 1) latest ON true
       WHERE latest.data_version IS NULL
          OR latest.data_version < (SELECT version FROM data_version)
          OR latest.generated_at < now() - make_interval(secs => ${maxAgeSeconds}))
     ORDER BY g.id`;
}

/**
 * The games whose snapshots are missing, older than the catalogue (a data version after theirs)
 * or older than `maxAgeSeconds` (the daily regeneration), or that have no archive of the UTC day
 * `archiveDate` (a new day's first generation archives it), in game order.
 */
export async function gamesToSnapshot(
  client: ClientBase,
  maxAgeSeconds: number,
  archiveDate?: string,
): Promise<string[]> {
  const rows = await rowsOf(client, GAME, gamesToSnapshotStatement(maxAgeSeconds, archiveDate ?? null));
  return rows.map((r) => r.id);
}

export function archiveDayStatement() {
  return sql`SELECT (now() AT TIME ZONE 'UTC')::date::text AS day`;
}

/** Today as a UTC calendar day (YYYY-MM-DD), by the database's clock: the day an archive is of. */
export async function archiveDay(client: ClientBase): Promise<string> {
  return (await rowOf(client, DAY, archiveDayStatement())).day;
}

/** A row when the game has its archive of `date`. */
export function hasArchiveStatement(gameId: string, date: string) {
  return completeSnapshots()
    .select(sql<number>`1`.as('found'))
    .where('archive_date', '=', sql<Date>`${date}::date`)
    .where('game_id', '=', gameId)
    .limit(sql.lit(1));
}

/** Whether the game has its archive of `date` already (then a generation only refreshes the latest). */
export async function hasArchive(client: ClientBase, gameId: string, date: string): Promise<boolean> {
  return (await execute(client, hasArchiveStatement(gameId, date))) > 0;
}

/** The games due a history file (`gamesDueHistory`). */
export function gamesDueHistoryStatement(maxAgeSeconds: number) {
  return sql`SELECT g.id FROM games g
     WHERE NOT EXISTS (
       SELECT 1 FROM bulk_snapshots h WHERE h.game_id = g.id AND h.format = ${HISTORY_FORMAT} AND h.complete
         AND h.generated_at >= now() - make_interval(secs => ${maxAgeSeconds}))
     ORDER BY g.id`;
}

/**
 * The games whose full-history file is missing or older than `maxAgeSeconds` (daily): a new data
 * version alone does not make it due, as it costs minutes and a day's file holds the day.
 */
export async function gamesDueHistory(client: ClientBase, maxAgeSeconds: number): Promise<string[]> {
  const rows = await rowsOf(client, GAME, gamesDueHistoryStatement(maxAgeSeconds));
  return rows.map((r) => r.id);
}

export function dropExpiredArchivesStatement(date: string, keepDays: number) {
  return db
    .deleteFrom('bulk_snapshots')
    .where('archive_date', '<=', sql<Date>`${date}::date - ${keepDays}::int`);
}

/** Every unfinished snapshot, with its parts: what generations killed half-way left. */
export function dropUnfinishedSnapshotsStatement() {
  return db.deleteFrom('bulk_snapshots').where('complete', '=', sql.lit(false));
}

/**
 * Deletes what generations killed half-way left (`complete` false). Only under the bulk lock, when
 * no generation is under way: one writing now has rows of that kind too.
 */
export function dropUnfinishedSnapshots(client: ClientBase): Promise<number> {
  return execute(client, dropUnfinishedSnapshotsStatement());
}

/**
 * The change log of `price_series` (`price_series_changes`) up to the oldest of the games' newest
 * history files: every file is built on its game's newest one and reads the log after that file's
 * version, so what comes before all of them is read by nobody. With no file at all (none written
 * yet, or a deployment whose scheduler writes only the snapshots), the whole log: a game's first
 * file is read whole. Under the bulk lock, so that no generation is under way.
 */
export function pruneSeriesChangesStatement() {
  return sql`DELETE FROM price_series_changes
     WHERE version <= coalesce(
       (SELECT min(newest) FROM (
          SELECT max(data_version) AS newest FROM bulk_snapshots
           WHERE format = ${HISTORY_FORMAT} AND complete AND game_id IN (SELECT id FROM games)
           GROUP BY game_id) AS files),
       (SELECT version FROM data_version))`;
}

/** Prunes the change log (`pruneSeriesChangesStatement`), under the bulk lock; returns the rows. */
export function pruneSeriesChanges(client: ClientBase): Promise<number> {
  return execute(client, pruneSeriesChangesStatement());
}

/** Deletes every archive, of any game (one removed since too), older than the retention. */
export function dropExpiredArchives(client: ClientBase, date: string, keepDays: number): Promise<number> {
  return execute(client, dropExpiredArchivesStatement(date, keepDays));
}

export function allGamesStatement() {
  return db.selectFrom('games').select('id').orderBy('id');
}

/** Every game, in order: what a generation on demand covers. */
export async function allGames(client: ClientBase): Promise<string[]> {
  const rows = await rowsOf(client, GAME, allGamesStatement());
  return rows.map((r) => r.id);
}

/**
 * Runs `work` holding the generation lock on `client`'s session; `wait` false gives up at once
 * (undefined) when another instance or tool holds it. The lock goes with the session, so a
 * generator killed midway frees it.
 */
export async function withBulkLock<T>(
  client: ClientBase,
  wait: boolean,
  work: () => Promise<T>,
): Promise<T | undefined> {
  if (wait) await execute(client, advisoryLockStatement(BULK_LOCK_KEY));
  else if (!(await rowOf(client, TRIED_LOCK, tryAdvisoryLockStatement(BULK_LOCK_KEY))).locked)
    return undefined;
  try {
    return await work();
  } finally {
    await execute(client, advisoryUnlockStatement(BULK_LOCK_KEY)).catch(() => undefined);
  }
}
