import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';

export interface StoredFile {
  readonly bytes: Buffer;
  readonly sha256: string;
}

/**
 * Stores `parts` as the latest NDJSON snapshot of `game`, as the bulk generator would have (the
 * file is the parts one after another); the file and its checksum. Random bytes stand in for a
 * gzip file: the downloads never look inside.
 */
export async function storeSnapshot(ds: DataSource, game: string, parts: Buffer[]): Promise<StoredFile> {
  const bytes = Buffer.concat(parts);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const [{ id }] = (await ds.query(
    `INSERT INTO bulk_snapshots (game_id, format, data_version, generated_at, bytes, row_count, sha256, chunks)
     VALUES ($1, 'ndjson.gz', 1, now(), $2, 1, $3, $4) RETURNING id`,
    [game, bytes.length, sha256, parts.length],
  )) as { id: string }[];
  for (const [seq, data] of parts.entries())
    await ds.query('INSERT INTO bulk_chunks (snapshot_id, seq, data) VALUES ($1, $2, $3)', [id, seq, data]);
  return { bytes, sha256 };
}
