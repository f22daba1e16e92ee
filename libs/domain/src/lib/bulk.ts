/**
 * Bulk data: per game, a snapshot of every variant with its current price and statistics, as one
 * gzip file per format, generated in the background and downloaded whole (issue 11); each UTC
 * day's first one kept as that day's archive, and a full-history file (issue 26).
 */
export const BULK_FORMATS = ['ndjson.gz', 'csv.gz'] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

export function isBulkFormat(value: string): value is BulkFormat {
  return (BULK_FORMATS as readonly string[]).includes(value);
}

/**
 * The full-history file of a game: every variant's daily price series per region, as gzip NDJSON,
 * written at most daily beside the latest snapshots (docs/bulk-data.md "Full history").
 */
export const HISTORY_FORMAT = 'history.ndjson.gz';
/** What `GET /v1/bulk/{game}/{format}` serves: the latest snapshots and the full history. */
export const LATEST_FORMATS = [...BULK_FORMATS, HISTORY_FORMAT] as const;
export type LatestFormat = (typeof LATEST_FORMATS)[number];

export function isLatestFormat(value: string): value is LatestFormat {
  return (LATEST_FORMATS as readonly string[]).includes(value);
}

/** Days a day's archive is kept by default (BULK_ARCHIVE_DAYS). */
export const DEFAULT_ARCHIVE_DAYS = 400;

/** One stored, complete snapshot file. */
export interface BulkSnapshot {
  readonly id: number;
  readonly gameId: string;
  readonly format: LatestFormat;
  /** The UTC day (YYYY-MM-DD) whose archive it is, never changed once written; null: not archived. */
  readonly archiveDate: string | null;
  /** The data version its rows were read at (one consistent read of the catalogue). */
  readonly dataVersion: number;
  /** Unix seconds. */
  readonly generatedAt: number;
  /** Size of the gzip file. */
  readonly bytes: number;
  /** Data rows (the CSV header not counted). */
  readonly rows: number;
  /** SHA-256 of the gzip file, lower-case hex. */
  readonly sha256: string;
  /** Stored parts of the file, numbered from 0. */
  readonly chunks: number;
}

/** Read side of the stored snapshots. Implemented in libs/persistence. */
export interface BulkSnapshotStore {
  /** The newest file of each game and format (the snapshots' two unless told), by game then format. */
  listLatest(formats?: readonly LatestFormat[]): Promise<BulkSnapshot[]>;
  latest(gameId: string, format: LatestFormat): Promise<BulkSnapshot | null>;
  /** The archived files, the latest day first, then by game and format. */
  listArchives(): Promise<BulkSnapshot[]>;
  archived(date: string, gameId: string, format: BulkFormat): Promise<BulkSnapshot | null>;
  /** Part `seq` of a snapshot; null when the snapshot was deleted meanwhile (retention). */
  readChunk(snapshotId: number, seq: number): Promise<Uint8Array | null>;
  /** The size of each part in order, to find where a range starts; null when deleted meanwhile. */
  chunkSizes(snapshotId: number): Promise<number[] | null>;
}
