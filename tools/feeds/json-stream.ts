import { TokenParser, Tokenizer } from '@streamparser/json';

/** A feed file that is not what its format says: nothing of it is imported. */
export class FeedParseError extends Error {
  constructor(
    readonly file: string,
    /** Bytes into the (decompressed) file where the fault was found. */
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`${file}: byte ${offset}: ${reason}`);
    this.name = 'FeedParseError';
  }
}

/** One value found at a selected path, with the keys of the objects it sits in (outermost first). */
export interface PathValue {
  readonly keys: readonly (string | number)[];
  readonly value: unknown;
  /** Bytes read when the value was complete: it ends at or before this offset. */
  readonly offset: number;
}

/**
 * The values at `paths` (JSONPath as @streamparser/json takes them: `$.data.*`) of a JSON document
 * read from `chunks`, in document order, each parsed whole and then dropped from the parser's
 * tree: memory is bounded by the largest selected value and one chunk, whatever the file's size.
 * A document that is not JSON, or ends early, throws FeedParseError with the byte offset.
 */
export async function* jsonValuesAt(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
  paths: readonly string[],
): AsyncGenerator<PathValue> {
  const tokenizer = new Tokenizer({ stringBufferSize: 64 * 1024 });
  const parser = new TokenParser({ paths: [...paths], keepStack: false });
  let found: PathValue[] = [];
  let offset = 0;
  let chunkEnd = 0;
  // Where the token being parsed starts.
  let tokenAt = 0;
  tokenizer.onToken = (token) => {
    tokenAt = token.offset;
    parser.write(token);
  };
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end();
  };
  parser.onValue = ({ value, key, stack }) => {
    const keys = stack.slice(1).map((s) => s.key as string | number);
    found.push({ keys: key === undefined ? keys : [...keys, key], value, offset: chunkEnd });
  };
  /** `at`: the offset when the error itself does not say (the tokenizer names a chunk position). */
  const fail = (error: unknown, at: number): never => {
    const message = error instanceof Error ? error.message : String(error);
    const inChunk = /at chunk position "(\d+)"/.exec(message);
    throw new FeedParseError(file, inChunk ? offset + Number(inChunk[1]) : at, message);
  };
  for await (const chunk of chunks) {
    chunkEnd = offset + chunk.byteLength;
    try {
      tokenizer.write(chunk);
    } catch (error) {
      // The parser refuses a whole token, named by where it starts.
      fail(error, tokenAt);
    }
    offset += chunk.byteLength;
    if (found.length > 0) {
      const ready = found;
      found = [];
      yield* ready;
    }
  }
  if (offset === 0) throw new FeedParseError(file, 0, 'the file is empty');
  // Input that ends inside a value, or before the document's last brace, is named by its end.
  try {
    if (!tokenizer.isEnded) tokenizer.end();
  } catch (error) {
    fail(error, offset);
  }
  if (!parser.isEnded) fail(new Error('the document ends before its last value does'), offset);
  yield* found;
}

/** The value as a JSON object (not null, not an array), else undefined. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The longest text a feed field may hold: well above any real name or type line. */
export const FEED_TEXT_MAX = 1_000;

/**
 * Whether `v` is text a catalogue column can take: non-empty, at most `max` characters, without
 * the NUL character PostgreSQL's text refuses (a file with one is refused whole at its check,
 * rather than failing half-way through its import).
 */
export function isFeedText(v: unknown, max = FEED_TEXT_MAX): v is string {
  return typeof v === 'string' && v !== '' && v.length <= max && !v.includes('\u0000');
}

/** A value quoted in a refusal: JSON, at most 80 characters. */
export function shown(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Whether `v` is a real calendar date `YYYY-MM-DD` (`2026-02-30` is not). */
export function isDate(v: string): boolean {
  return utcDayStart(v) !== undefined;
}

/** The Unix seconds of a real calendar date's UTC midnight; undefined for anything else. */
export function utcDayStart(v: string): number | undefined {
  // A price file repeats the same 90 dates for every card: each is read once.
  if (dayStarts.has(v)) return dayStarts.get(v);
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) : NaN;
  const start = !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === v ? ms / 1000 : undefined;
  if (dayStarts.size >= 10_000) dayStarts.clear();
  dayStarts.set(v, start);
  return start;
}
const dayStarts = new Map<string, number | undefined>();
