import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { download } from './download';

const FIXTURE = join(__dirname, 'fixtures', 'mtgjson', 'AllPrices.json.gz');

/**
 * A feed server on 127.0.0.1 that behaves as MTGJSON's does: ETag and Last-Modified, 304 on a
 * matching conditional request, one byte range with If-Range, the file's `.sha256` beside it.
 * `mode` makes it misbehave: cut the body half-way, publish a wrong digest, stall.
 */
class FeedServer {
  mode: 'normal' | 'cut-once' | 'wrong-digest' | 'stall' = 'normal';
  readonly requests: { path: string; headers: IncomingMessage['headers']; status: number }[] = [];
  private server!: Server;
  constructor(private readonly body: Buffer) {}

  readonly etag = `"${createHash('sha256').update('v1').digest('hex').slice(0, 16)}"`;
  readonly lastModified = 'Wed, 25 Nov 2026 10:00:00 GMT';

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const done = (status: number): void => {
      this.requests.push({ path: req.url!, headers: req.headers, status });
    };
    if (req.url === '/AllPrices.json.gz.sha256') {
      const digest =
        this.mode === 'wrong-digest' ? '0'.repeat(64) : createHash('sha256').update(this.body).digest('hex');
      res.end(`${digest}\n`);
      return done(200);
    }
    if (req.url !== '/AllPrices.json.gz') {
      res.statusCode = 404;
      res.end();
      return done(404);
    }
    if (this.mode === 'stall') return done(0); // never answers
    const common = { etag: this.etag, 'last-modified': this.lastModified, 'accept-ranges': 'bytes' };
    if (req.headers['if-none-match'] === this.etag) {
      res.writeHead(304, common).end();
      return done(304);
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers['range'] ?? '');
    if (range && req.headers['if-range'] === this.etag) {
      const from = Number(range[1]);
      res.writeHead(206, {
        ...common,
        'content-length': this.body.length - from,
        'content-range': `bytes ${from}-${this.body.length - 1}/${this.body.length}`,
      });
      res.end(this.body.subarray(from));
      return done(206);
    }
    res.writeHead(200, { ...common, 'content-length': this.body.length });
    if (this.mode === 'cut-once') {
      this.mode = 'normal';
      // Half the file, then (once the client has had time to take it) the connection drops.
      res.write(this.body.subarray(0, Math.floor(this.body.length / 2)));
      setTimeout(() => res.socket?.destroy(), 200);
      return done(200);
    }
    res.end(this.body);
    done(200);
  }
}

describe('feed downloader (a local server in the published behaviour)', () => {
  let server: FeedServer;
  let base: string;
  let dir: string;
  let body: Buffer;
  const deadlines = { idleMs: 2_000, totalMs: 10_000 };

  beforeEach(async () => {
    body = await readFile(FIXTURE);
    server = new FeedServer(body);
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
    expect(server.requests.at(-1)).toMatchObject({ status: 304, headers: { 'if-none-match': server.etag } });
  });

  it('resumes a download cut half-way with a Range request, to the same sha256', async () => {
    server.mode = 'cut-once';
    await expect(fetchIt()).rejects.toThrow(/cut after \d+ bytes/);
    expect(existsSync(join(dir, 'AllPrices.json.gz'))).toBe(false);
    const half = Math.floor(body.length / 2);
    const resumed = await fetchIt();
    expect(resumed).toMatchObject({ status: 'fetched', bytes: body.length, resumedFrom: half });
    expect(resumed.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(server.requests.find((r) => r.status === 206)?.headers).toMatchObject({
      range: `bytes=${half}-`,
      'if-range': server.etag,
    });
    expect(await readFile(join(dir, 'AllPrices.json.gz'))).toEqual(body);
  });

  it('keeps nothing of a file whose sha256 is not the published one', async () => {
    server.mode = 'wrong-digest';
    await expect(fetchIt()).rejects.toThrow(/sha256 [0-9a-f]{64} is not the published 0{64}/);
    expect(existsSync(join(dir, 'AllPrices.json.gz'))).toBe(false);
    expect(existsSync(join(dir, 'AllPrices.json.gz.part'))).toBe(false);
  });

  it('gives up on a server that does not answer, at its deadline', async () => {
    server.mode = 'stall';
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
