import { writeCatalogue } from '@tcg/persistence';
import { tinyCatalogue, useTestDatabase } from '@tcg/persistence/testing';
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { DataSource } from 'typeorm';
import { storeSnapshot, StoredFile } from './bulk-fixture';
import { fetchWithKey } from './http';
import { newKey } from './keys';
import { wire } from './raw-http';
import { startStack, Stack } from './stack';

const DOWNLOAD = '/v1/bulk/test-game/ndjson.gz';
/** Parts of unequal sizes, so a range starts and ends inside parts, and one part is a single byte. */
const PART_SIZES = [300_000, 65_536, 1, 400_000, 12_345];

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A download the client cuts: it reads the status line, the headers and `keep` bytes of the body,
 * then closes the connection (as a dropped link would). What it had when it cut.
 */
function cutDownload(port: number, key: string, keep: number): Promise<{ head: string; body: Buffer }> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      fail(new Error('the download did not send enough bytes'));
    }, 15_000);
    socket.on('error', fail);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0 || received.length - headEnd - 4 < keep) return;
      clearTimeout(timer);
      socket.destroy();
      done({
        head: received.subarray(0, headEnd).toString('latin1'),
        body: received.subarray(headEnd + 4, headEnd + 4 + keep),
      });
    });
    socket.on('connect', () => socket.write(wire(`GET ${DOWNLOAD} HTTP/1.1`, { 'x-api-key': key })));
  });
}

describe('bulk downloads resume with Range through the gateway', () => {
  let stack: Stack;
  let ds: DataSource;
  let key: string;
  let file: StoredFile;

  const get = (headers: Record<string, string> = {}) =>
    fetchWithKey(`${stack.gatewayUrl}${DOWNLOAD}`, key, { headers });

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    await writeCatalogue(ds, tinyCatalogue());
    file = await storeSnapshot(
      ds,
      'test-game',
      PART_SIZES.map((n) => randomBytes(n)),
    );
    stack = await startStack();
    key = await newKey('enterprise');
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('sends the whole file with Accept-Ranges: bytes', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(file.bytes.length));
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(file.sha256);
  });

  it('a download cut half-way and resumed with Range and If-Range has the checksum of the whole file', async () => {
    const half = Math.floor(file.bytes.length / 2);
    const cut = await cutDownload(Number(new URL(stack.gatewayUrl).port), key, half);
    expect(cut.head).toMatch(/^HTTP\/1\.1 200 /);
    const etag = /\r\netag: ("[0-9a-f]+")/i.exec(cut.head)?.[1];
    expect(etag).toBe(`"${file.sha256}"`);

    const rest = await get({ range: `bytes=${half}-`, 'if-range': etag! });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(
      `bytes ${half}-${file.bytes.length - 1}/${file.bytes.length}`,
    );
    expect(rest.headers.get('content-length')).toBe(String(file.bytes.length - half));
    const resumed = Buffer.concat([cut.body, Buffer.from(await rest.arrayBuffer())]);
    expect(sha256(resumed)).toBe(file.sha256);
  });

  it('sends exactly the bytes of a range inside the file, and of a suffix', async () => {
    const start = PART_SIZES[0]! - 10; // ends inside the fourth part, across the one-byte part
    const end = PART_SIZES[0]! + PART_SIZES[1]! + 100;
    const inner = await get({ range: `bytes=${start}-${end}` });
    expect(inner.status).toBe(206);
    expect(inner.headers.get('content-range')).toBe(`bytes ${start}-${end}/${file.bytes.length}`);
    expect(Buffer.from(await inner.arrayBuffer()).equals(file.bytes.subarray(start, end + 1))).toBe(true);

    const suffix = await get({ range: 'bytes=-100' });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(file.bytes.subarray(-100))).toBe(true);
  });

  it('answers 416 with Content-Range: bytes */size to a range past the end', async () => {
    const res = await get({ range: `bytes=${file.bytes.length}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${file.bytes.length}`);
    const body = (await res.json()) as { error: string; code: string };
    expect(body.code).toBe('INVALID_REQUEST');
    expect(body.error).toMatch(/Range/);
  });

  it('sends the whole file when If-Range names another file, and for several ranges', async () => {
    const ignored: Record<string, string>[] = [
      { range: 'bytes=100-', 'if-range': '"0000"' },
      { range: 'bytes=100-', 'if-range': 'Thu, 01 Jan 2015 00:00:00 GMT' },
      { range: 'bytes=0-9, 20-29' },
    ];
    for (const headers of ignored) {
      const res = await get(headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-range')).toBeNull();
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(file.sha256);
    }
  });
});
