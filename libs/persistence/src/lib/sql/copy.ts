import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const COPY_ESCAPED = /[\\\t\n\r]/;

/** One field in PostgreSQL's COPY text format. */
export function copyField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  // Most values (rendered JSON, names) hold none of the four: one scan instead of four replaces.
  if (!COPY_ESCAPED.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

export function copyLine(fields: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${fields.map(copyField).join('\t')}\n`;
}

/** Streams lines into `COPY <target> FROM STDIN` on the given client, in ~256 KiB writes. */
export async function copyInto(client: PoolClient, target: string, lines: Iterable<string>): Promise<void> {
  function* chunks(): Generator<string> {
    let buf = '';
    for (const line of lines) {
      buf += line;
      if (buf.length >= 262_144) {
        yield buf;
        buf = '';
      }
    }
    if (buf) yield buf;
  }
  await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}
