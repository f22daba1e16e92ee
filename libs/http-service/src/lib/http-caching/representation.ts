import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, crc32, deflateRawSync } from 'node:zlib';
import { ContentCoding } from './content-coding';

/** Bodies smaller than this go out as they are: compressing them saves less than a packet. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** How hard to compress. */
export interface CompressionLevels {
  readonly brotliQuality: number;
  readonly gzipLevel: number;
}

/**
 * Effort by how often an answer's coding is used: the first sends pay for a quick encoding (most
 * answers of a large catalogue are asked for once between two imports), and an answer asked for
 * `HOT_AFTER` times in one coding is encoded again, harder, once, for every later send.
 */
export interface CompressionPolicy {
  readonly cold: CompressionLevels;
  readonly hot: CompressionLevels;
}

export const HOT_AFTER = 3;

/**
 * An answer's bytes, ready to send in any coding: `head`, the same for every request, is encoded
 * once per coding and kept; a per-request `tail` (v1's `_metadata`) is appended at send time
 * without compressing anything again. The encoded head is a flushed, unfinished stream (byte
 * aligned, no end marker); the tail follows as an uncompressed block and the stream is closed by
 * hand: a stored final block and the gzip trailer (CRC-32 continued over the tail), or a brotli
 * uncompressed meta-block and an empty last one. The tail is small, so leaving it uncompressed
 * costs a few hundred bytes at most and nothing in CPU.
 */
export class Representation {
  /** The head's digest, computed at its first use: an answer never validated (a POST) skips it. */
  private tag: string | undefined;
  /** Each coding's encoded head and how many sends have used it. */
  private readonly encoded: Partial<Record<'br' | 'gzip', { head: Buffer; uses: number }>> = {};
  /** The head's CRC-32, for a gzip body's trailer: computed at the first gzip send, not per answer. */
  private headCrc: number | undefined;

  constructor(
    readonly head: Buffer,
    /** Headers of the answer besides the caching ones (v2's Link, X-Total-Count). */
    readonly headers: Readonly<Record<string, string>>,
    /** A weak tag: the answer has a per-request part the tag does not cover (v1's `_metadata`). */
    readonly weak: boolean,
    private readonly policy: CompressionPolicy,
  ) {}

  /** Opaque entity tag: a digest of the head, so an unchanged answer keeps its tag across versions. */
  get opaqueTag(): string {
    this.tag ??= createHash('sha256').update(this.head).digest('base64url').slice(0, 27);
    return this.tag;
  }

  /** Bytes held: what a cache counts against its budget. */
  get bytes(): number {
    return (
      this.head.length + (this.encoded.gzip?.head.length ?? 0) + (this.encoded.br?.head.length ?? 0) + 256
    );
  }

  /** The coding actually used for `wanted` with this tail: identity when the body is small. */
  codingFor(wanted: ContentCoding, tail: Buffer): ContentCoding {
    return this.head.length + tail.length < COMPRESSION_THRESHOLD_BYTES ? 'identity' : wanted;
  }

  /** The body in `coding` (from `codingFor`), as chunks to write in order; the bytes stay valid. */
  body(coding: ContentCoding, tail: Buffer): Buffer[] {
    if (coding === 'identity') return tail.length === 0 ? [this.head] : [this.head, tail];
    if (tail.length > 0xffff) throw new Error('a per-request tail must be under 64 KiB');
    return coding === 'gzip' ? this.gzip(tail) : this.brotli(tail);
  }

  /**
   * The head encoded in `coding`: quickly at its first send, again harder at its `HOT_AFTER`th,
   * reused otherwise.
   */
  private encodedHead(coding: 'br' | 'gzip', encode: (levels: CompressionLevels) => Buffer): Buffer {
    let entry = this.encoded[coding];
    if (entry === undefined) entry = this.encoded[coding] = { head: encode(this.policy.cold), uses: 0 };
    else if (entry.uses + 1 === HOT_AFTER) entry.head = encode(this.policy.hot);
    entry.uses++;
    return entry.head;
  }

  private gzip(tail: Buffer): Buffer[] {
    const encoded = this.encodedHead('gzip', (levels) =>
      deflateRawSync(this.head, { level: levels.gzipLevel, finishFlush: constants.Z_SYNC_FLUSH }),
    );
    const stored = Buffer.allocUnsafe(5);
    stored[0] = 1; // BFINAL, BTYPE 00: stored
    stored.writeUInt16LE(tail.length, 1);
    stored.writeUInt16LE(~tail.length & 0xffff, 3);
    const trailer = Buffer.allocUnsafe(8);
    this.headCrc ??= crc32(this.head);
    // Not crc32 of an empty tail: once an empty buffer has been written to a socket its backing
    // store can be a null pointer, and zlib's crc32 of a null buffer is 0, not the CRC carried in.
    trailer.writeUInt32LE(tail.length === 0 ? this.headCrc : crc32(tail, this.headCrc), 0);
    trailer.writeUInt32LE((this.head.length + tail.length) >>> 0, 4);
    return [GZIP_HEADER, encoded, stored, tail, trailer];
  }

  private brotli(tail: Buffer): Buffer[] {
    const encoded = this.encodedHead('br', (levels) =>
      brotliCompressSync(this.head, {
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
        params: {
          [constants.BROTLI_PARAM_QUALITY]: levels.brotliQuality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: this.head.length,
        },
      }),
    );
    if (tail.length === 0) return [encoded, BROTLI_LAST_EMPTY];
    // ISLAST 0, MNIBBLES 4 (code 0), MLEN-1 in 16 bits, ISUNCOMPRESSED 1: 20 bits, zero-padded.
    const bits = ((tail.length - 1) << 3) | (1 << 19);
    const header = Buffer.from([bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff]);
    return [encoded, header, tail, BROTLI_LAST_EMPTY];
  }
}

/** Magic, CM deflate, no flags, no mtime, no extra flags, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** ISLAST 1, ISLASTEMPTY 1. */
const BROTLI_LAST_EMPTY = Buffer.from([3]);
