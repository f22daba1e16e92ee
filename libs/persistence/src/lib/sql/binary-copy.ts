import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const INT4_OID = 23;
const PG_EPOCH_DAYS = 10_957; // 2000-01-01 in days since 1970-01-01

/**
 * Rows in PostgreSQL's binary COPY format. Integer arrays go in as binary, so the server copies
 * them instead of parsing text — for month rows of prices that is most of a bulk load's cost.
 */
export class BinaryCopyRows {
  private buf = Buffer.allocUnsafe(1 << 20);
  private len = 0;
  private rows = 0;

  constructor() {
    this.ensure(SIGNATURE.length + 8);
    SIGNATURE.copy(this.buf, 0);
    this.len = SIGNATURE.length;
    this.int32(0); // flags
    this.int32(0); // header extension length
  }

  get count(): number {
    return this.rows;
  }

  row(fields: number): this {
    this.ensure(2);
    this.buf.writeInt16BE(fields, this.len);
    this.len += 2;
    this.rows++;
    return this;
  }

  uuid(value: string): this {
    this.int32(16);
    this.ensure(16);
    this.len += this.buf.write(value.replace(/-/g, ''), this.len, 16, 'hex');
    return this;
  }

  text(value: string): this {
    const bytes = Buffer.byteLength(value, 'utf8');
    this.int32(bytes);
    this.ensure(bytes);
    this.len += this.buf.write(value, this.len, bytes, 'utf8');
    return this;
  }

  /** A `date` from Unix seconds at a UTC midnight. */
  date(unixSeconds: number): this {
    this.int32(4);
    this.int32(Math.floor(unixSeconds / 86_400) - PG_EPOCH_DAYS);
    return this;
  }

  /** A one-dimensional, non-empty `integer[]`. */
  int4Array(values: ArrayLike<number>): this {
    const n = values.length;
    this.int32(20 + 8 * n);
    this.ensure(20 + 8 * n);
    for (const word of [1, 0, INT4_OID, n, 1]) this.int32(word); // ndim, has-nulls, element type, length, lower bound
    // Each element: its length (4), then the value big-endian; byte by byte, which V8 compiles to
    // plain stores (writeInt32BE checks its arguments per call: a fifth of a load's Node time).
    const buf = this.buf;
    let at = this.len;
    for (let i = 0; i < n; i++, at += 8) {
      const v = values[i]!;
      if (!Number.isInteger(v) || v < -2_147_483_648 || v > 2_147_483_647)
        throw new RangeError(`int4 array element ${v} is out of range`);
      buf[at] = 0;
      buf[at + 1] = 0;
      buf[at + 2] = 0;
      buf[at + 3] = 4;
      buf[at + 4] = v >>> 24;
      buf[at + 5] = v >>> 16;
      buf[at + 6] = v >>> 8;
      buf[at + 7] = v;
    }
    this.len = at;
    return this;
  }

  /** The finished COPY payload (with its trailer). */
  finish(): Buffer {
    this.ensure(2);
    this.buf.writeInt16BE(-1, this.len);
    this.len += 2;
    return this.buf.subarray(0, this.len);
  }

  private int32(value: number): void {
    this.ensure(4);
    this.buf.writeInt32BE(value, this.len);
    this.len += 4;
  }

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + extra));
    this.buf.copy(grown, 0, 0, this.len);
    this.buf = grown;
  }
}

/** Sends binary COPY rows into `target` (a table with its column list). */
export async function copyBinaryInto(
  client: PoolClient,
  target: string,
  rows: BinaryCopyRows,
): Promise<void> {
  if (rows.count === 0) return;
  await pipeline(
    Readable.from([rows.finish()]),
    client.query(copyFrom(`COPY ${target} FROM STDIN WITH (FORMAT binary)`)),
  );
}
