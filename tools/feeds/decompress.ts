import { createReadStream } from 'node:fs';
import { Readable, Transform, pipeline } from 'node:stream';
import { ReadableStream, ReadableStreamReadResult } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import unbzip2Stream from 'unbzip2-stream';
import { XzReadableStream } from 'xz-decompress';

/**
 * How a feed file is compressed. MTGJSON publishes every file as `.json.gz`, `.json.xz` and
 * `.json.bz2` (https://mtgjson.com/downloads/all-files/); Scryfall's bulk files are plain JSON
 * (served with gzip content-encoding, or saved gzipped).
 */
export type Compression = 'none' | 'gzip' | 'xz' | 'bz2';

/** A feed file whose compressed bytes do not decompress: corrupt, truncated, or not of that format. */
export class FeedDecompressError extends Error {
  constructor(
    readonly file: string,
    readonly compression: Exclude<Compression, 'none'>,
    readonly reason: string,
    /** The whole message, when the data is not corrupt but refused (a bomb). */
    message = `${file}: the ${compression} compressed data is corrupt or truncated: ${reason}`,
  ) {
    super(message);
    this.name = 'FeedDecompressError';
  }
}

/** By the file name's extension: `.gz`, `.xz`, `.bz2`; anything else is read as it is. */
export function compressionOf(fileName: string): Compression {
  const name = fileName.toLowerCase();
  if (name.endsWith('.gz')) return 'gzip';
  if (name.endsWith('.xz')) return 'xz';
  if (name.endsWith('.bz2')) return 'bz2';
  return 'none';
}

/**
 * The decompressed bytes of `chunks`, as a stream: memory stays bounded (a 64 KB window for gzip
 * and xz plus the format's dictionary; for bz2 one block, 900 KB compressed, which the decoder
 * hands over whole: up to 46 MB for runs of one byte) whatever the file's size, and
 * the next compressed chunk is read only once the consumer has taken what the last one gave.
 * Compressed data that is corrupt or ends early throws FeedDecompressError naming `file`; an error
 * of `chunks` itself (a read error) is thrown as it is. Stopping early (`break`) closes `chunks`.
 *
 * xz is decoded by `xz-decompress` (xz-embedded compiled to WebAssembly): it decodes one xz file
 * at a time per process, so a second xz read waits until the first has ended or been abandoned.
 */
export function decompressed(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
  compression: Compression,
  /** Output allowed whatever the input so far (tests pass a smaller one than EXPANSION_SLACK). */
  slack = EXPANSION_SLACK,
): AsyncIterable<Buffer> {
  if (compression === 'none') return asBuffers(chunks);
  const input = { bytes: 0 };
  const counted = countedInput(chunks, input);
  const output =
    compression === 'gzip'
      ? viaTransform(file, 'gzip', counted, createGunzip({ chunkSize: 64 * 1024 }))
      : compression === 'xz'
        ? unxz(file, counted)
        : bunzip2(file, counted, input, slack);
  return boundedExpansion(file, compression, output, input, slack);
}

/**
 * How many times its compressed size a feed file may expand: the published JSON files expand
 * 5 to 25 times; far more is a decompression bomb (a few bytes of bz2 become gigabytes of
 * spaces), refused before its output fills memory or keeps a sync busy for hours.
 */
export const MAX_EXPANSION = 200;
/** Output allowed whatever the input so far: a file's first blocks may expand more. */
export const EXPANSION_SLACK = 64 << 20;

const tooExpanded = (out: number, input: number, slack: number) => out > slack + MAX_EXPANSION * input;

const bombIn = (file: string, compression: Exclude<Compression, 'none'>) =>
  new FeedDecompressError(
    file,
    compression,
    'a decompression bomb',
    `${file}: it expands more than ${MAX_EXPANSION} times its compressed size: refused as a decompression bomb`,
  );

async function* countedInput(
  chunks: AsyncIterable<Buffer | Uint8Array>,
  input: { bytes: number },
): AsyncGenerator<Buffer | Uint8Array> {
  for await (const chunk of chunks) {
    input.bytes += chunk.byteLength;
    yield chunk;
  }
}

async function* boundedExpansion(
  file: string,
  compression: Exclude<Compression, 'none'>,
  output: AsyncIterable<Buffer>,
  input: { bytes: number },
  slack: number,
): AsyncGenerator<Buffer> {
  let out = 0;
  for await (const chunk of output) {
    out += chunk.length;
    if (tooExpanded(out, input.bytes, slack)) throw bombIn(file, compression);
    yield chunk;
  }
}

/** A feed file as stored, decompressed by its extension (`compressionOf`), in 64 KB reads. */
export function readFeedFile(path: string): AsyncIterable<Buffer> {
  return decompressed(path, createReadStream(path, { highWaterMark: 64 * 1024 }), compressionOf(path));
}

const asBuffer = (chunk: Buffer | Uint8Array): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

async function* asBuffers(chunks: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield asBuffer(chunk);
}

/** Not `instanceof Error`: errors of Node's own modules come from another realm under Jest. */
const messageOf = (error: unknown): string =>
  typeof (error as Error | undefined)?.message === 'string' ? (error as Error).message : String(error);

/** `chunks` through a Node transform (zlib's gunzip), with backpressure. */
async function* viaTransform(
  file: string,
  compression: 'gzip',
  chunks: AsyncIterable<Buffer | Uint8Array>,
  transform: Transform,
): AsyncGenerator<Buffer> {
  let sourceFailed: { error: unknown } | undefined;
  let bytesIn = 0;
  async function* source(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of chunks) {
        bytesIn += chunk.byteLength;
        yield asBuffer(chunk);
      }
    } catch (error) {
      sourceFailed = { error };
      throw error;
    }
  }
  const input = Readable.from(source(), { objectMode: false });
  const inputClosed = new Promise((resolve) => input.once('close', resolve));
  const output = pipeline(input, transform, () => undefined);
  try {
    for await (const chunk of output as AsyncIterable<Buffer>) if (chunk.length > 0) yield chunk;
  } catch (error) {
    if (sourceFailed) throw sourceFailed.error;
    throw new FeedDecompressError(file, compression, bytesIn === 0 ? 'the file is empty' : messageOf(error));
  } finally {
    // Stopped early: the source is closed (its generator returned) before this one returns.
    output.destroy();
    await inputClosed;
  }
}

/**
 * xz through `xz-decompress`'s web stream (xz-embedded in WebAssembly): CRC32 and CRC64 checks
 * verified (`xz`'s and Python's `lzma` default is CRC64; a file with a SHA-256 check is refused as
 * 'unsupported xz options'), dictionaries up to 64 MiB (`xz -9`). Like `xz -d`, it decodes
 * concatenated streams in turn and refuses bytes after the last one that are not stream padding.
 */
async function* unxz(file: string, chunks: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<Buffer> {
  const source = chunks[Symbol.asyncIterator]();
  let sourceFailed: { error: unknown } | undefined;
  let bytesIn = 0;
  const compressed = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<Buffer | Uint8Array>;
        try {
          next = await source.next();
        } catch (error) {
          sourceFailed = { error };
          throw error;
        }
        if (next.done) controller.close();
        else {
          bytesIn += next.value.byteLength;
          // Always non-empty: an empty chunk would read to the decoder as the end of its input.
          if (next.value.byteLength > 0) controller.enqueue(next.value);
        }
      },
      async cancel() {
        await source.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  const fail = (reason: string) => new FeedDecompressError(file, 'xz', reason);
  const reader = new XzReadableStream(compressed).getReader();
  let ended = false;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        ended = true; // an errored stream has freed its decoder
        if (sourceFailed) throw sourceFailed.error;
        if (bytesIn === 0) throw fail('the file is empty');
        // xz-embedded's codes (xz.h): 3 XZ_MEM_ERROR … 7 XZ_DATA_ERROR, 8 XZ_BUF_ERROR (input ended early).
        const code = /error code (\d+)/.exec(messageOf(error))?.[1];
        throw fail(code ? (XZ_ERRORS[Number(code)] ?? messageOf(error)) : messageOf(error));
      }
      if (next.done) break;
      if (next.value.byteLength > 0)
        yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    }
    ended = true;
  } finally {
    // Abandoned by the consumer (or failed): frees the decoder for the next xz read, closes the source.
    if (!ended) await reader.cancel().catch(() => undefined);
    await source.return?.();
  }
}

const XZ_ERRORS: Record<number, string> = {
  2: 'unsupported check type',
  3: 'out of memory',
  4: 'dictionary too large',
  5: 'not an xz file (no xz magic bytes)',
  6: 'unsupported xz options',
  7: 'corrupt data (integrity check or structure)',
  8: 'the data ends before the end of an xz stream (truncated), or is followed by bytes that are not xz',
};

/**
 * bz2 through `unbzip2-stream` (pure JavaScript; every block's CRC and the stream's CRC checked;
 * concatenated streams, as pbzip2 writes, decoded in turn). It is a synchronous `through` stream:
 * each write decodes the blocks it completes, so its output is taken before the next write.
 */
async function* bunzip2(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
  input: { bytes: number },
  slack: number,
): AsyncGenerator<Buffer> {
  const decoder = unbzip2Stream();
  const output: Buffer[] = [];
  // The decoder decodes every block a write completes before it returns: past the bound, its
  // output is dropped as it comes (the bound's error follows), so a bomb never fills memory.
  let decoded = 0;
  let failed: { error: unknown } | undefined;
  let ended = false;
  let bytesIn = 0;
  decoder.on('data', (data: Buffer) => {
    decoded += data.length;
    // Thrown out of the decoder's write: it stops decoding the blocks that write holds.
    if (tooExpanded(decoded, input.bytes, slack)) throw bombIn(file, 'bz2');
    if (data.length > 0) output.push(data);
  });
  decoder.on('error', (error: unknown) => {
    failed ??= { error };
  });
  decoder.on('end', () => {
    ended = true;
  });
  const fail = (reason: string) => new FeedDecompressError(file, 'bz2', reason);
  const check = () => {
    // The decoder reads past the end of its input on a truncated block (a TypeError), and names
    // a missing end-of-stream marker 'input stream ended prematurely'.
    if (failed)
      throw fail(
        (failed.error as Error | undefined)?.name === 'TypeError'
          ? 'the data ends early'
          : messageOf(failed.error),
      );
  };
  for await (const chunk of chunks) {
    if (chunk.byteLength === 0) continue;
    bytesIn += chunk.byteLength;
    try {
      decoder.write(asBuffer(chunk));
    } catch (error) {
      if (error instanceof FeedDecompressError) throw error;
      failed ??= { error };
    }
    check();
    while (output.length > 0) yield output.shift()!;
  }
  decoder.end();
  check();
  while (output.length > 0) yield output.shift()!;
  if (bytesIn === 0) throw fail('the file is empty');
  if (!ended) throw fail('the decoder did not reach the end of the stream');
}
