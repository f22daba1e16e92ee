import {
  BULK_FORMATS,
  BulkFormat,
  BulkSnapshot,
  BulkSnapshotStore,
  HISTORY_FORMAT,
  LatestFormat,
} from '@tcg/domain';
import type { ClientBase } from 'pg';
import { DataSource } from 'typeorm';
import { BULK_LOCK_KEY } from './bulk-generator';

interface SnapshotRow {
  id: string;
  game_id: string;
  format: LatestFormat;
  archive_date: string | null;
  data_version: string;
  generated_at: number;
  bytes: string;
  row_count: string;
  sha256: string;
  chunks: number;
}

const COLUMNS = `id::text, game_id, format, archive_date::text, data_version::text,
  floor(extract(epoch FROM generated_at))::float8 AS generated_at, bytes::text, row_count::text, sha256, chunks`;

function toSnapshot(r: SnapshotRow): BulkSnapshot {
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

/** The stored snapshots, read through the service's pool: a few short statements per request. */
export class TypeOrmBulkSnapshotStore implements BulkSnapshotStore {
  constructor(private readonly ds: DataSource) {}

  async listLatest(formats: readonly LatestFormat[] = BULK_FORMATS): Promise<BulkSnapshot[]> {
    const rows = (await this.ds.query(
      // A game removed since (an interrupted first load is removed and redone) is not listed.
      `SELECT DISTINCT ON (game_id, format) ${COLUMNS} FROM bulk_snapshots
       WHERE game_id IN (SELECT id FROM games) AND format = ANY($1::text[])
       ORDER BY game_id, format, id DESC`,
      [formats],
    )) as SnapshotRow[];
    return rows.map(toSnapshot);
  }

  async listArchives(): Promise<BulkSnapshot[]> {
    const rows = (await this.ds.query(
      `SELECT ${COLUMNS} FROM bulk_snapshots
       WHERE archive_date IS NOT NULL AND game_id IN (SELECT id FROM games)
       ORDER BY archive_date DESC, game_id, format`,
    )) as SnapshotRow[];
    return rows.map(toSnapshot);
  }

  async archived(date: string, gameId: string, format: BulkFormat): Promise<BulkSnapshot | null> {
    const rows = (await this.ds.query(
      `SELECT ${COLUMNS} FROM bulk_snapshots WHERE archive_date = $1::date AND game_id = $2 AND format = $3`,
      [date, gameId, format],
    )) as SnapshotRow[];
    return rows[0] ? toSnapshot(rows[0]) : null;
  }

  async latest(gameId: string, format: LatestFormat): Promise<BulkSnapshot | null> {
    const rows = (await this.ds.query(
      `SELECT ${COLUMNS} FROM bulk_snapshots WHERE game_id = $1 AND format = $2 ORDER BY id DESC LIMIT 1`,
      [gameId, format],
    )) as SnapshotRow[];
    return rows[0] ? toSnapshot(rows[0]) : null;
  }

  async readChunk(snapshotId: number, seq: number): Promise<Uint8Array | null> {
    const rows = (await this.ds.query(`SELECT data FROM bulk_chunks WHERE snapshot_id = $1 AND seq = $2`, [
      snapshotId,
      seq,
    ])) as { data: Buffer }[];
    return rows[0]?.data ?? null;
  }

  async chunkSizes(snapshotId: number): Promise<number[] | null> {
    const rows = (await this.ds.query(
      `SELECT octet_length(data) AS size FROM bulk_chunks WHERE snapshot_id = $1 ORDER BY seq`,
      [snapshotId],
    )) as { size: number }[];
    return rows.length > 0 ? rows.map((r) => Number(r.size)) : null;
  }
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
  const { rows } = await client.query<{ id: string }>(
    `SELECT g.id FROM games g
     WHERE ($3::date IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM bulk_snapshots a WHERE a.archive_date = $3::date AND a.game_id = g.id))
        OR EXISTS (
       SELECT 1 FROM unnest($2::text[]) AS f (format)
       LEFT JOIN LATERAL (
         SELECT b.data_version, b.generated_at FROM bulk_snapshots b
         WHERE b.game_id = g.id AND b.format = f.format ORDER BY b.id DESC LIMIT 1) latest ON true
       WHERE latest.data_version IS NULL
          OR latest.data_version < (SELECT version FROM data_version)
          OR latest.generated_at < now() - make_interval(secs => $1))
     ORDER BY g.id`,
    [maxAgeSeconds, BULK_FORMATS, archiveDate ?? null],
  );
  return rows.map((r) => r.id);
}

/** Today as a UTC calendar day (YYYY-MM-DD), by the database's clock: the day an archive is of. */
export async function archiveDay(client: ClientBase): Promise<string> {
  const { rows } = await client.query<{ day: string }>(
    `SELECT (now() AT TIME ZONE 'UTC')::date::text AS day`,
  );
  return rows[0]!.day;
}

/** Whether the game has its archive of `date` already (then a generation only refreshes the latest). */
export async function hasArchive(client: ClientBase, gameId: string, date: string): Promise<boolean> {
  const { rows } = await client.query(
    'SELECT 1 FROM bulk_snapshots WHERE archive_date = $1::date AND game_id = $2 LIMIT 1',
    [date, gameId],
  );
  return rows.length > 0;
}

/**
 * The games whose full-history file is missing or older than `maxAgeSeconds` (daily): a new data
 * version alone does not make it due, as it costs minutes and a day's file holds the day.
 */
export async function gamesDueHistory(client: ClientBase, maxAgeSeconds: number): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT g.id FROM games g
     WHERE NOT EXISTS (
       SELECT 1 FROM bulk_snapshots h WHERE h.game_id = g.id AND h.format = $2
         AND h.generated_at >= now() - make_interval(secs => $1))
     ORDER BY g.id`,
    [maxAgeSeconds, HISTORY_FORMAT],
  );
  return rows.map((r) => r.id);
}

/** Deletes every archive, of any game (one removed since too), older than the retention. */
export async function dropExpiredArchives(
  client: ClientBase,
  date: string,
  keepDays: number,
): Promise<number> {
  const { rowCount } = await client.query(
    'DELETE FROM bulk_snapshots WHERE archive_date <= $1::date - $2::int',
    [date, keepDays],
  );
  return rowCount ?? 0;
}

/** Every game, in order: what a generation on demand covers. */
export async function allGames(client: ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>('SELECT id FROM games ORDER BY id');
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
  if (wait) await client.query('SELECT pg_advisory_lock($1)', [BULK_LOCK_KEY]);
  else {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      BULK_LOCK_KEY,
    ]);
    if (!rows[0]!.locked) return undefined;
  }
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [BULK_LOCK_KEY]).catch(() => undefined);
  }
}
