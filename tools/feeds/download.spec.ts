import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultMaxBytes, download } from './download';
import { FeedServer } from './testing/feed-server';

const FIXTURE = join(__dirname, 'fixtures', 'mtgjson', 'AllPrices.json.gz');
const PATH = '/AllPrices.json.gz';

describe('feed downloader (a local server in the published behaviour)', () => {
  let server: FeedServer;
  let base: string;
  let dir: string;
  let body: Buffer;
  const deadlines = { idleMs: 2_000, totalMs: 10_000 };

  beforeEach(async () => {
    body = await readFile(FIXTURE);
    server = new FeedServer().file(PATH, body);
    base = await server.start();
    dir = await mkdtemp(join(tmpdir(), 'feeds-'));
  });
  afterEach(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const fetchIt = () =>
    download({
      url: `${base}/AllPrices.json.gz`,
      sha256Url: `${base}/AllPrices.json.gz.sha256`,
      dest: join(dir, 'AllPrices.json.gz'),
      deadlines,
    });

  it('fetches the file, checks its published sha256, and gets 304 the second time', async () => {
    const first = await fetchIt();
    expect(first).toMatchObject({ status: 'fetched', bytes: body.length, resumedFrom: 0 });
    expect(first.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(await readFile(join(dir, 'AllPrices.json.gz'))).toEqual(body);
    const second = await fetchIt();
    expect(second).toEqual({ status: 'unchanged', bytes: body.length, sha256: first.sha256, resumedFrom: 0 });
    expect(server.requests.at(-1)).toMatchObject({
      status: 304,
      headers: { 'if-none-match': server.etagOf(PATH) },
    });
  });

  it('resumes a download cut half-way with a Range request, to the same sha256', async () => {
    server.modes.set(PATH, 'cut-once');
    await expect(fetchIt()).rejects.toThrow(/cut after \d+ bytes/);
    expect(existsSync(join(dir, 'AllPrices.json.gz'))).toBe(false);
    const half = Math.floor(body.length / 2);
    const resumed = await fetchIt();
    expect(resumed).toMatchObject({ status: 'fetched', bytes: body.length, resumedFrom: half });
    expect(resumed.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(server.requests.find((r) => r.status === 206)?.headers).toMatchObject({
      range: `bytes=${half}-`,
      'if-range': server.etagOf(PATH),
    });
    expect(await readFile(join(dir, 'AllPrices.json.gz'))).toEqual(body);
  });

  it('starts over when a part killed after its last byte is asked for past its end (416)', async () => {
    // As a kill between the last byte and the rename leaves it: the whole body in the part.
    const dest = join(dir, 'AllPrices.json.gz');
    await writeFile(`${dest}.part`, body);
    await writeFile(`${dest}.part.meta.json`, JSON.stringify({ etag: server.etagOf(PATH) }));
    const fetched = await fetchIt();
    expect(fetched).toMatchObject({ status: 'fetched', bytes: body.length, resumedFrom: 0 });
    expect(server.requests.map((r) => r.status)).toEqual([416, 200, 200]);
    expect(await readFile(dest)).toEqual(body);
  });

  it('keeps nothing of a file whose sha256 is not the published one', async () => {
    server.modes.set(PATH, 'wrong-digest');
    await expect(fetchIt()).rejects.toThrow(/sha256 [0-9a-f]{64} is not the published 0{64}/);
    expect(existsSync(join(dir, 'AllPrices.json.gz'))).toBe(false);
    expect(existsSync(join(dir, 'AllPrices.json.gz.part'))).toBe(false);
  });

  it('refuses a file longer than its cap before writing a byte, and keeps the file it had', async () => {
    const dest = join(dir, 'AllPrices.json.gz');
    await fetchIt();
    server.file(PATH, Buffer.concat([body, body])); // the feed grew past the cap set below
    await expect(
      download({
        url: `${base}${PATH}`,
        sha256Url: `${base}${PATH}.sha256`,
        dest,
        deadlines,
        maxBytes: body.length,
      }),
    ).rejects.toThrow(`larger than its cap of ${body.length} bytes (${2 * body.length} bytes announced)`);
    expect(await readFile(dest)).toEqual(body);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it('drops the part of a cut download rather than resume a file past its cap', async () => {
    const dest = join(dir, 'AllPrices.json.gz');
    server.modes.set(PATH, 'cut-once');
    await expect(fetchIt()).rejects.toThrow(/cut after \d+ bytes/);
    expect(existsSync(`${dest}.part`)).toBe(true);
    await expect(
      download({ url: `${base}${PATH}`, dest, deadlines, maxBytes: body.length - 1 }),
    ).rejects.toThrow(/larger than its cap/);
    expect([`${dest}.part`, `${dest}.part.meta.json`, dest].filter((f) => existsSync(f))).toEqual([]);
  });

  it('stops a body that goes on past the cap without announcing its length, and keeps nothing', async () => {
    // Chunked, no Content-Length: 16 parts of 64 KiB, against a cap of 200,000 bytes.
    const endless = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      for (let i = 0; i < 16; i++) res.write(Buffer.alloc(64 * 1024, 1));
      res.end();
    });
    await new Promise<void>((r) => endless.listen(0, '127.0.0.1', r));
    const dest = join(dir, 'AllPrices.json.gz');
    try {
      await expect(
        download({
          url: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/AllPrices.json.gz`,
          dest,
          deadlines,
          maxBytes: 200_000,
        }),
      ).rejects.toThrow(
        'larger than its cap of 200000 bytes (more sent than the cap): nothing of it is kept',
      );
      expect([`${dest}.part`, `${dest}.part.meta.json`, dest].filter((f) => existsSync(f))).toEqual([]);
    } finally {
      endless.closeAllConnections();
      await new Promise((r) => endless.close(r));
    }
  });

  it.each([
    ['AllPrices.json.gz', 8 * 1024 ** 3],
    ['AllPrintings.json.xz', 8 * 1024 ** 3],
    ['TcgplayerSkus.json.gz', 4 * 1024 ** 3],
    ['default-cards.json', 4 * 1024 ** 3],
    ['price_guide_1.json', 1024 ** 3],
  ])('caps %s at %d bytes unless told otherwise', (name, cap) => {
    expect(defaultMaxBytes(join(dir, name))).toBe(cap);
  });

  it('gives up on a server that does not answer, at its deadline', async () => {
    server.modes.set(PATH, 'stall');
    const started = Date.now();
    await expect(
      download({
        url: `${base}/AllPrices.json.gz`,
        dest: join(dir, 'f.gz'),
        deadlines: { idleMs: 300, totalMs: 5_000 },
      }),
    ).rejects.toThrow(/no answer for 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('refuses an HTTP error and a protocol it does not speak', async () => {
    await expect(download({ url: `${base}/missing`, dest: join(dir, 'm'), deadlines })).rejects.toThrow(
      /HTTP 404/,
    );
    await expect(download({ url: 'ftp://127.0.0.1/x', dest: join(dir, 'x'), deadlines })).rejects.toThrow(
      /unsupported protocol ftp:/,
    );
  });
});
