import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Compression, FeedDecompressError, compressionOf, decompressed, readFeedFile } from './decompress';
import { readAllPrices } from './mtgjson/all-prices';
import { chunksOf, collect } from '../testing/byte-streams';

const FIXTURES = join(__dirname, 'fixtures', 'mtgjson');
const fixture = (name: string) => join(FIXTURES, name);

const joined = async (chunks: AsyncIterable<Buffer>) => Buffer.concat(await collect(chunks));

/** `promise`, or a failure if it has not settled within 5 s (nothing here may hang). */
async function within5s<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('hung: not settled within 5 s')), 5_000);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error `items` rejects with (a truncated stream must end, not hang). */
async function rejection(items: AsyncIterable<unknown>): Promise<unknown> {
  return within5s(collect(items)).then(
    () => new Error('expected a rejection, got the whole file'),
    (error: unknown) => error,
  );
}

describe('compressionOf', () => {
  it.each([
    ['AllPrices.json.gz', 'gzip'],
    ['AllPrices.json.xz', 'xz'],
    ['/data/feeds/TcgplayerSkus.json.bz2', 'bz2'],
    ['default-cards-20261126.json', 'none'],
    ['AllPrices.JSON.XZ', 'xz'],
    ['AllPrices.json.gz.sha256', 'none'],
  ])('%s is %s', (name, compression) => {
    expect(compressionOf(name)).toBe(compression);
  });
});

describe('decompressed', () => {
  it.each<[string, string, Compression]>([
    ['AllPrices.json', 'AllPrices.json', 'none'],
    ['AllPrices.json.gz', 'AllPrices.json', 'gzip'],
    ['AllPrices.json.xz', 'AllPrices.json', 'xz'],
    ['TcgplayerSkus.json.bz2', 'TcgplayerSkus.json', 'bz2'],
  ])('%s decompresses to exactly the bytes of %s (%s)', async (name, plain, compression) => {
    const expected = await readFile(fixture(plain));
    const compressed = await readFile(fixture(name));
    expect(await joined(readFeedFile(fixture(name)))).toEqual(expected);
    // Whatever the chunking, down to one byte at a time.
    for (const size of [1, 7, 64 * 1024])
      expect(await joined(decompressed(name, chunksOf(compressed, size), compression))).toEqual(expected);
  });

  it.each(['AllPrices.json.xz', 'TcgplayerSkus.json.bz2'])(
    '%s is the fixture as published, with its sha256 beside it',
    async (name) => {
      const bytes = await readFile(fixture(name));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(
        (await readFile(fixture(`${name}.sha256`), 'utf8')).trim(),
      );
    },
  );

  it.each<[string, Compression, (bytes: Buffer) => Buffer]>([
    ['AllPrices.json.xz', 'xz', (b) => b.subarray(0, b.length >> 1)],
    ['AllPrices.json.xz', 'xz', (b) => b.subarray(0, b.length - 1)],
    ['TcgplayerSkus.json.bz2', 'bz2', (b) => b.subarray(0, b.length >> 1)],
    ['TcgplayerSkus.json.bz2', 'bz2', (b) => b.subarray(0, b.length - 1)],
    ['AllPrices.json.gz', 'gzip', (b) => b.subarray(0, b.length >> 1)],
    ['AllPrices.json.gz', 'gzip', (b) => flip(b, 100)],
    ['AllPrices.json.gz', 'gzip', (b) => flip(b, b.length - 6)], // its CRC32
    ['AllPrices.json.xz', 'xz', (b) => flip(b, 300)],
    ['TcgplayerSkus.json.bz2', 'bz2', (b) => flip(b, 200)],
  ])(
    '%s (%s), cut or corrupted, is refused naming the file, and does not hang',
    async (name, compression, damage) => {
      const bytes = damage(await readFile(fixture(name)));
      for (const size of [1, 64 * 1024]) {
        const error = await rejection(decompressed(`feeds/${name}`, chunksOf(bytes, size), compression));
        expect(error).toBeInstanceOf(FeedDecompressError);
        expect(error).toMatchObject({ file: `feeds/${name}`, compression });
        expect((error as Error).message).toMatch(
          new RegExp(
            `^feeds/${name.replace(/\./g, '\\.')}: the ${compression} compressed data is corrupt or truncated: `,
          ),
        );
      }
    },
  );

  it.each<Compression>(['gzip', 'xz', 'bz2'])(
    'refuses an empty %s file, and bytes not of the format',
    async (c) => {
      expect(await rejection(decompressed('empty', chunksOf(Buffer.alloc(0), 1), c))).toMatchObject({
        name: 'FeedDecompressError',
        file: 'empty',
        reason: 'the file is empty',
      });
      const plain = await readFile(fixture('AllPrices.json'));
      expect(await rejection(decompressed('plain', chunksOf(plain, 512), c))).toBeInstanceOf(
        FeedDecompressError,
      );
    },
  );

  it('reads the file through readFeedFile, and names its path when it is cut', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'decompress-'));
    try {
      const cut = join(dir, 'AllPrices.json.xz');
      const bytes = await readFile(fixture('AllPrices.json.xz'));
      await writeFile(cut, bytes.subarray(0, bytes.length >> 1));
      const error = await rejection(readFeedFile(cut));
      expect(error).toMatchObject({ name: 'FeedDecompressError', file: cut });
      expect((error as Error).message).toContain(cut);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each<Compression>(['none', 'gzip', 'xz', 'bz2'])(
    'passes an error of the source (%s) as it is, not as corrupt data',
    async (compression) => {
      const failing = async function* () {
        yield (await readFile(fixture('AllPrices.json.gz'))).subarray(0, 10);
        throw new Error('EIO: disk read failed');
      };
      const error = await rejection(decompressed('x', failing(), compression));
      expect(error).not.toBeInstanceOf(FeedDecompressError);
      expect(error).toMatchObject({ message: 'EIO: disk read failed' });
    },
  );

  it.each<[string, Compression]>([
    ['AllPrices.json', 'none'],
    ['AllPrices.json.gz', 'gzip'],
    ['AllPrices.json.xz', 'xz'],
    ['TcgplayerSkus.json.bz2', 'bz2'],
  ])('stops reading %s when the consumer stops (%s)', async (name, compression) => {
    const bytes = await readFile(fixture(name));
    let closed = false;
    const source = async function* () {
      try {
        // Concatenated (gzip members, xz and bz2 streams): more than the first output chunk.
        for (let i = 0; i < 50; i++) yield* chunksOf(bytes, 16);
      } finally {
        closed = true;
      }
    };
    for await (const chunk of decompressed(name, source(), compression)) if (chunk.length > 0) break;
    expect(closed).toBe(true);
  });

  it('frees the xz decoder (one per process) when a read is abandoned: the next is not kept waiting', async () => {
    const xz = await readFile(fixture('AllPrices.json.xz'));
    const first = decompressed('first.xz', chunksOf(Buffer.concat([xz, xz, xz]), 16), 'xz');
    for await (const chunk of first) if (chunk.length > 0) break;
    const second = decompressed('second.xz', chunksOf(xz, 64), 'xz');
    expect(await within5s(joined(second))).toEqual(await readFile(fixture('AllPrices.json')));
  });
});

describe('a decompression bomb', () => {
  // The files' slack is 64 MB (EXPANSION_SLACK): two 46 MB blocks of bz2 decoded in JavaScript, 19 s.
  const SLACK = 8 << 20;
  // 100 MB of spaces: about a hundred bytes as bz2, 100 KB as gzip; written with the system tools.
  const bomb = (compress: string[]): Buffer =>
    execFileSync(compress[0]!, compress.slice(1), {
      input: Buffer.alloc(100 << 20, 0x20),
      maxBuffer: 8 << 20,
    });

  it.each([
    ['bz2', ['bzip2', '-9', '-c']],
    ['gzip', ['gzip', '-9', '-c']],
  ] as const)('is refused as %s before its output fills memory', async (compression, tool) => {
    const bytes = bomb([...tool]);
    const before = process.memoryUsage().rss;
    let peak = before;
    const error = await within5s(
      rejection(
        (async function* () {
          for await (const chunk of decompressed('bomb', chunksOf(bytes, 1 << 16), compression, SLACK)) {
            peak = Math.max(peak, process.memoryUsage().rss);
            yield chunk;
          }
        })(),
      ),
    );
    expect(error).toBeInstanceOf(FeedDecompressError);
    expect((error as Error).message).toMatch(/expands more than 200 times its compressed size/);
    // Bounded by the slack and a block, not by the 100 MB the bomb holds.
    expect(peak - before).toBeLessThan(SLACK + (64 << 20));
  });
});

describe('readAllPrices over a decompressed feed', () => {
  it('reads the same prices from AllPrices.json.xz as from AllPrices.json', async () => {
    const plain = await collect(readAllPrices('AllPrices.json', createReadStream(fixture('AllPrices.json'))));
    const fromXz = await collect(
      readAllPrices('AllPrices.json.xz', readFeedFile(fixture('AllPrices.json.xz'))),
    );
    expect(plain.length).toBeGreaterThan(0);
    expect(fromXz).toEqual(plain);
  });
});

function flip(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] ^= 0xff;
  return copy;
}
