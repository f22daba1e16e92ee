import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { RawRecord } from './observation-row';

export type FileFormat = 'ndjson' | 'csv';

export interface NumberedRecord {
  readonly line: number;
  readonly record?: RawRecord;
  /** Set when the line could not be read as a record at all. */
  readonly error?: string;
}

export function formatOf(path: string): FileFormat | undefined {
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  if (/\.csv$/i.test(path)) return 'csv';
  return undefined;
}

/** Streams the records of a price file with their 1-based line numbers. */
export async function* readRecords(path: string, format: FileFormat): AsyncGenerator<NumberedRecord> {
  if (format === 'ndjson') {
    let line = 0;
    for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      try {
        const value: unknown = JSON.parse(text);
        if (value === null || typeof value !== 'object' || Array.isArray(value))
          yield { line, error: 'not a JSON object' };
        else yield { line, record: value as RawRecord };
      } catch {
        yield { line, error: 'malformed JSON' };
      }
    }
    return;
  }
  // Header row names the columns; relax_column_count lets a short row be reported rather than abort the file.
  const parser = createReadStream(path).pipe(
    parse({
      columns: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
      bom: true,
    }),
  );
  let invalidSoFar = 0; // csv-parse counts short or long rows cumulatively
  for await (const { record, info } of parser as AsyncIterable<{
    record: RawRecord;
    info: { lines: number; invalid_field_length: number };
  }>) {
    if (info.invalid_field_length > invalidSoFar) {
      invalidSoFar = info.invalid_field_length;
      yield { line: info.lines, error: 'wrong number of columns' };
    } else yield { line: info.lines, record };
  }
}
