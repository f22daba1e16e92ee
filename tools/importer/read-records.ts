import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { RawRecord } from './observation-row';

export type FileFormat = 'ndjson' | 'csv';

export interface NumberedRecord {
  readonly line: number;
  readonly record?: RawRecord;
  /** Set when the line could not be read as a record at all. */
  readonly error?: string;
}

/**
 * The longest NDJSON line or CSV record read, in bytes without its line break. A price record is
 * well under 1 KiB; the cap keeps one bad line from holding the importer's memory.
 */
export const MAX_RECORD_BYTES = 64 * 1024;

export function formatOf(path: string): FileFormat | undefined {
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  if (/\.csv$/i.test(path)) return 'csv';
  return undefined;
}

/** Streams the records of a price file with their 1-based line numbers. */
export function readRecords(
  path: string,
  format: FileFormat,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<NumberedRecord> {
  return openRecords(path, format, maxBytes).records;
}

/**
 * The records of a price file, and how many of its bytes have been read so far (what a progress
 * bar can set against the file's size, as the number of records is not known until the end).
 */
export function openRecords(
  path: string,
  format: FileFormat,
  maxBytes = MAX_RECORD_BYTES,
): { records: AsyncGenerator<NumberedRecord>; bytesRead: () => number } {
  const input = createReadStream(path);
  const records = format === 'ndjson' ? ndjsonRecords(input, maxBytes) : csvRecords(input, maxBytes);
  return { records, bytesRead: () => input.bytesRead };
}

/**
 * A physical line: its bytes (without the `\n`), or `tooLong` when it passed the cap; `tallied`
 * counts the bytes equal to the `tally` byte asked for, in the whole line.
 */
export type BoundedLine = { readonly line: number; readonly tallied: number } & (
  | { readonly bytes: Buffer; readonly tooLong?: undefined }
  | { readonly tooLong: true; readonly bytes?: undefined }
);

/**
 * Splits a byte stream into lines, holding at most `maxBytes` of one line: the rest of a longer
 * line is skipped as it streams past, so a 1 GB line costs a scan, not 1 GB of memory. Each byte
 * is looked at once (twice with `tally`).
 */
export async function* boundedLines(
  chunks: AsyncIterable<Buffer | string>,
  maxBytes: number,
  tally?: number,
): AsyncGenerator<BoundedLine> {
  let line = 1;
  let parts: Buffer[] = [];
  let held = 0;
  let tooLong = false;
  let tallied = 0;
  const end = (): BoundedLine => {
    const out: BoundedLine = tooLong
      ? { line, tallied, tooLong: true }
      : { line, tallied, bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts, held) };
    parts = [];
    held = 0;
    tooLong = false;
    tallied = 0;
    line++;
    return out;
  };
  /** Keeps `piece` unless the line is over the cap; `copy` when the chunk's memory may be reused. */
  const take = (piece: Buffer, copy: boolean) => {
    if (tally !== undefined)
      for (let i = piece.indexOf(tally); i !== -1; i = piece.indexOf(tally, i + 1)) tallied++;
    if (tooLong || piece.length === 0) return;
    if (held + piece.length > maxBytes) {
      tooLong = true;
      parts = [];
      held = 0;
      return;
    }
    parts.push(copy ? Buffer.from(piece) : piece);
    held += piece.length;
  };
  for await (const raw of chunks) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    let from = 0;
    for (let nl = chunk.indexOf(0x0a, from); nl !== -1; nl = chunk.indexOf(0x0a, from)) {
      take(chunk.subarray(from, nl), false);
      yield end();
      from = nl + 1;
    }
    // The tail outlives this chunk: copied, as the stream may reuse the chunk's memory.
    if (from < chunk.length) take(chunk.subarray(from), true);
  }
  if (held > 0 || tooLong) yield end();
}

const tooLongError = (maxBytes: number) => `line is longer than ${maxBytes} bytes`;

export async function* ndjsonRecords(
  input: AsyncIterable<Buffer | string>,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<NumberedRecord> {
  for await (const l of boundedLines(input, maxBytes)) {
    if (l.tooLong) {
      yield { line: l.line, error: tooLongError(maxBytes) };
      continue;
    }
    const text = l.bytes.toString('utf8');
    if (text.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(text);
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        yield { line: l.line, error: 'not a JSON object' };
      else yield { line: l.line, record: value as RawRecord };
    } catch {
      yield { line: l.line, error: 'malformed JSON' };
    }
  }
}

const QUOTE = 0x22;

/**
 * CSV records. The parser only ever sees records within the cap: lines are gathered into whole
 * records here first — a record continues on the next line while it holds an odd number of
 * quotes (RFC 4180 escapes a quote by doubling it) — and a record over the cap is reported at
 * its first line and replaced by empty lines, so the parser's line numbers stay right and every
 * record around it is still read. An unclosed quote makes the rest of the file one record: it is
 * reported once and skipped.
 */
export async function* csvRecords(
  input: AsyncIterable<Buffer | string>,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<NumberedRecord> {
  const rejected: NumberedRecord[] = [];
  const NEWLINE = Buffer.from('\n');
  async function* wholeRecords(): AsyncGenerator<Buffer> {
    let held: Buffer[] = []; // the lines of an unfinished record
    let heldBytes = 0; // with the newlines between them
    let first = 0; // the record's first line
    let open = false; // inside a quoted field at the end of the last line
    let dropping = false; // skipping the rest of an oversized record
    const blankLines = (n: number) => Buffer.alloc(n, 0x0a);
    for await (const l of boundedLines(input, maxBytes, QUOTE)) {
      const startsRecord = !open;
      if (l.tallied % 2 === 1) open = !open;
      if (dropping) {
        dropping = open;
        yield blankLines(1);
        continue;
      }
      if (startsRecord) first = l.line;
      const size = l.tooLong ? Infinity : heldBytes + (startsRecord ? 0 : 1) + l.bytes.length;
      if (l.tooLong || size > maxBytes) {
        rejected.push({
          line: first,
          error: startsRecord ? tooLongError(maxBytes) : `record is longer than ${maxBytes} bytes`,
        });
        yield blankLines(held.length + 1);
        held = [];
        heldBytes = 0;
        dropping = open;
        continue;
      }
      held.push(l.bytes);
      heldBytes = size;
      if (!open) {
        yield Buffer.concat(held.flatMap((b) => [b, NEWLINE]));
        held = [];
        heldBytes = 0;
      }
    }
    if (held.length > 0) {
      rejected.push({ line: first, error: 'a quoted field is never closed' });
      yield blankLines(held.length);
    }
  }
  const source = Readable.from(wholeRecords());
  // Header row names the columns; relax_column_count lets a short row be reported rather than abort the file.
  const parser = source.pipe(
    parse({
      columns: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
      bom: true,
      max_record_size: maxBytes, // never reached: wholeRecords keeps records within it
    }),
  );
  // wholeRecords runs ahead of the parser, so every rejection before a record is known by the
  // time that record arrives.
  let next = 0;
  function* rejectedBefore(line: number): Generator<NumberedRecord> {
    while (next < rejected.length && rejected[next]!.line < line) yield rejected[next++]!;
  }
  let invalidSoFar = 0; // csv-parse counts short or long rows cumulatively
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: RawRecord;
      info: { lines: number; invalid_field_length: number };
    }>) {
      yield* rejectedBefore(info.lines);
      if (info.invalid_field_length > invalidSoFar) {
        invalidSoFar = info.invalid_field_length;
        yield { line: info.lines, error: 'wrong number of columns' };
      } else yield { line: info.lines, record };
    }
  } finally {
    source.destroy();
  }
  yield* rejectedBefore(Infinity);
}
