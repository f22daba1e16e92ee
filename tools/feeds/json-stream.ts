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
