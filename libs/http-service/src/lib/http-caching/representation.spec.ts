import fc from 'fast-check';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COMPRESSION } from './cached-responder';
import { COMPRESSION_THRESHOLD_BYTES, HOT_AFTER, Representation } from './representation';

const LEVELS = COMPRESSION;

function decode(coding: string, chunks: Buffer[]): string {
  const bytes = Buffer.concat(chunks);
  if (coding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

describe('Representation', () => {
  it('sends head + tail that decode to exactly head + tail, in every coding, for any texts', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 0, maxLength: 5000 }),
        fc.string({ unit: 'binary', maxLength: 2000 }),
        fc.constantFrom('br', 'gzip', 'identity'),
        (head, tail, coding) => {
          const rep = new Representation(Buffer.from(head), {}, false, LEVELS);
          const body = rep.body(coding as 'br' | 'gzip' | 'identity', Buffer.from(tail));
          expect(decode(coding, body)).toBe(head + tail);
        },
      ),
      { numRuns: 150 },
    );
  });

  it.each(['br', 'gzip'] as const)(
    'encodes the head quickly once, again harder at its third %s send, and reuses it for every tail',
    (coding) => {
      const head = Buffer.from(
        JSON.stringify({
          data: Array.from({ length: 300 }, (_, i) => ({ i, name: `card ${i % 17}` })),
        }).slice(0, -1),
      );
      const rep = new Representation(head, {}, true, LEVELS);
      const sizeBefore = rep.bytes;
      const sends = Array.from({ length: HOT_AFTER + 1 }, (_, n) =>
        rep.body(coding, Buffer.from(`,"_metadata":{"n":${n}}}`)),
      );
      expect(rep.bytes).toBeGreaterThan(sizeBefore);
      expect(sends[1]![coding === 'br' ? 0 : 1]).toBe(sends[0]![coding === 'br' ? 0 : 1]); // reused
      const cold = sends[0]![coding === 'br' ? 0 : 1]!;
      const hot = sends[HOT_AFTER - 1]![coding === 'br' ? 0 : 1]!;
      expect(hot).not.toBe(cold);
      expect(hot.length).toBeLessThan(cold.length);
      expect(sends[HOT_AFTER]![coding === 'br' ? 0 : 1]).toBe(hot);
      sends.forEach((chunks, n) =>
        expect(JSON.parse(decode(coding, chunks))).toMatchObject({ _metadata: { n } }),
      );
    },
  );

  it('leaves bodies under the threshold uncompressed', () => {
    const rep = new Representation(Buffer.alloc(COMPRESSION_THRESHOLD_BYTES - 10, 'a'), {}, false, LEVELS);
    expect(rep.codingFor('br', Buffer.alloc(9, 'b'))).toBe('identity');
    expect(rep.codingFor('br', Buffer.alloc(10, 'b'))).toBe('br');
  });

  it('tags by content: the same head gives the same tag, another head another', () => {
    const a = new Representation(Buffer.from('{"a":1}'), {}, false, LEVELS);
    expect(new Representation(Buffer.from('{"a":1}'), {}, false, LEVELS).opaqueTag).toBe(a.opaqueTag);
    expect(new Representation(Buffer.from('{"a":2}'), {}, false, LEVELS).opaqueTag).not.toBe(a.opaqueTag);
    expect(a.opaqueTag).toMatch(/^[\w-]{27}$/);
  });
});
