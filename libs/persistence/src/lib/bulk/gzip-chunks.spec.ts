import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { CHUNK_BYTES, GzipChunks } from './gzip-chunks';

describe('GzipChunks', () => {
  it('stores the gzip file in order, in full parts of CHUNK_BYTES but the last, with its size and checksum', async () => {
    const parts: Buffer[] = [];
    const writer = new GzipChunks(async (seq, part) => {
      expect(seq).toBe(parts.length);
      parts.push(Buffer.from(part));
    });
    // Random hex compresses only to half: about 2.5 parts of gzip.
    const pages = Array.from({ length: 20 }, () => randomBytes(128 * 1024).toString('hex'));
    for (const page of pages) await writer.write(page);
    const file = await writer.end();

    const joined = Buffer.concat(parts);
    expect(parts.length).toBe(3);
    expect(parts.slice(0, -1).every((p) => p.length === CHUNK_BYTES)).toBe(true);
    expect(file).toEqual({
      bytes: joined.length,
      sha256: createHash('sha256').update(joined).digest('hex'),
      chunks: 3,
    });
    expect(gunzipSync(joined).toString('utf8')).toBe(pages.join(''));
  });

  it('a write resolves only once every full part it made is stored: less than a part is left held', async () => {
    const writer = new GzipChunks(async () => undefined);
    const page = randomBytes(64 * 1024).toString('hex');
    for (let i = 0; i < 40; i++) {
      await writer.write(page);
      expect((writer as unknown as { pendingBytes: number }).pendingBytes).toBeLessThan(CHUNK_BYTES);
    }
    await writer.end();
  });

  it('an empty file is a valid gzip stream of one part', async () => {
    const parts: Buffer[] = [];
    const file = await new GzipChunks(async (_seq, part) => void parts.push(part)).end();
    expect(file.chunks).toBe(1);
    expect(gunzipSync(Buffer.concat(parts)).length).toBe(0);
  });
});
