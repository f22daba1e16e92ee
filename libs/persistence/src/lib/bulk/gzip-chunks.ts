import { createHash, Hash } from 'node:crypto';
import { once } from 'node:events';
import { createGzip, Gzip } from 'node:zlib';

/** Stored parts of a snapshot: large enough that a download reads few rows, small enough to hold. */
export const CHUNK_BYTES = 1024 * 1024;

/** What a finished file is: its size, checksum and the number of parts written. */
export interface GzipFile {
  readonly bytes: number;
  readonly sha256: string;
  readonly chunks: number;
}

/**
 * Text in, gzip out in parts of `CHUNK_BYTES` handed to `store` one at a time, in order. Each
 * `write` resolves once zlib has compressed its text and every full part it completed is stored,
 * so the caller's loop is paced by compression and by the database: at most one page of text,
 * one part and zlib's own window are held, whatever the file's size. Compression runs on the
 * libuv thread pool, off the event loop that answers requests.
 */
export class GzipChunks {
  private readonly gzip: Gzip;
  private readonly hash: Hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private bytes = 0;
  private seq = 0;
  private failed: Error | undefined;

  constructor(
    private readonly store: (seq: number, part: Buffer) => Promise<void>,
    level = 6,
  ) {
    this.gzip = createGzip({ level });
    this.gzip.on('data', (b: Buffer) => {
      this.pending.push(b);
      this.pendingBytes += b.length;
      this.hash.update(b);
      this.bytes += b.length;
    });
    this.gzip.on('error', (e: Error) => (this.failed = e));
  }

  async write(text: string): Promise<void> {
    if (text === '') return;
    await new Promise<void>((done, fail) => this.gzip.write(text, (e) => (e ? fail(e) : done())));
    if (this.failed) throw this.failed;
    while (this.pendingBytes >= CHUNK_BYTES) await this.storePart(CHUNK_BYTES);
  }

  /** Ends the gzip stream and stores what is left: the file's size, checksum and part count. */
  async end(): Promise<GzipFile> {
    const ended = once(this.gzip, 'end');
    this.gzip.end();
    await ended;
    if (this.failed) throw this.failed;
    while (this.pendingBytes > 0) await this.storePart(Math.min(CHUNK_BYTES, this.pendingBytes));
    return { bytes: this.bytes, sha256: this.hash.digest('hex'), chunks: this.seq };
  }

  /** Drops the stream without storing anything more (a generation that failed). */
  destroy(): void {
    this.gzip.destroy();
    this.pending = [];
    this.pendingBytes = 0;
  }

  private async storePart(size: number): Promise<void> {
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const part = all.subarray(0, size);
    const rest = all.subarray(size);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    await this.store(this.seq++, part);
  }
}
