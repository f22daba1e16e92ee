import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** How the server answers for one file: as the feeds do, or misbehaving in one way. */
export type ServeMode = 'normal' | 'cut-once' | 'wrong-digest' | 'stall' | 'busy-once';

/**
 * A feed server on 127.0.0.1 that behaves as MTGJSON's and Scryfall's do: each file with an ETag
 * and Last-Modified, 304 on a matching conditional request, one byte range with If-Range, and
 * the file's `.sha256` beside it; JSON documents (a bulk-data index) as they are. `modes` makes
 * one file misbehave: cut its body half-way once, publish a wrong digest, never answer, or answer
 * 429 with `Retry-After: 2` once (as a rate-limited server does).
 * Tests never reach further than this server.
 */
export class FeedServer {
  readonly modes = new Map<string, ServeMode>();
  readonly requests: { path: string; headers: IncomingMessage['headers']; status: number; at: number }[] = [];
  readonly lastModified = 'Wed, 25 Nov 2026 10:00:00 GMT';
  private readonly files = new Map<string, Buffer>();
  private readonly documents = new Map<string, (base: string) => unknown>();
  private server!: Server;
  private base = '';

  /** Serves `body` at `path` (with `<path>.sha256` beside it); replaces what was there. */
  file(path: string, body: Buffer): this {
    this.files.set(path, body);
    return this;
  }

  /** Serves a JSON document at `path`, built from the server's base URL. */
  json(path: string, document: (base: string) => unknown): this {
    this.documents.set(path, document);
    return this;
  }

  etagOf(path: string): string {
    return `"${createHash('sha256').update(this.files.get(path)!).digest('hex').slice(0, 16)}"`;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Serves nothing more at `path` (a feed that withdrew a document). */
  remove(path: string): this {
    this.files.delete(path);
    this.documents.delete(path);
    return this;
  }

  /** The statuses answered for `path`, in order. */
  statusesOf(path: string): number[] {
    return this.requests.filter((r) => r.path === path).map((r) => r.status);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '';
    const done = (status: number): void => {
      this.requests.push({ path, headers: req.headers, status, at: Date.now() });
    };
    if (this.modes.get(path) === 'busy-once') {
      this.modes.delete(path);
      res.writeHead(429, { 'retry-after': '2', 'content-type': 'text/plain' }).end('Too Many Requests');
      return done(429);
    }
    const document = this.documents.get(path);
    if (document) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document(this.base)));
      return done(200);
    }
    if (path.endsWith('.sha256') && this.files.has(path.slice(0, -'.sha256'.length))) {
      const file = path.slice(0, -'.sha256'.length);
      const digest =
        this.modes.get(file) === 'wrong-digest'
          ? '0'.repeat(64)
          : createHash('sha256').update(this.files.get(file)!).digest('hex');
      res.end(`${digest}\n`);
      return done(200);
    }
    const body = this.files.get(path);
    if (!body) {
      res.statusCode = 404;
      res.end();
      return done(404);
    }
    const mode = this.modes.get(path) ?? 'normal';
    if (mode === 'stall') return done(0); // never answers
    const etag = this.etagOf(path);
    const common = { etag, 'last-modified': this.lastModified, 'accept-ranges': 'bytes' };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, common).end();
      return done(304);
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers['range'] ?? '');
    if (range && req.headers['if-range'] === etag && Number(range[1]) >= body.length) {
      // A range past the end, as RFC 9110 and nginx answer it.
      res.writeHead(416, { ...common, 'content-range': `bytes */${body.length}` }).end();
      return done(416);
    }
    if (range && req.headers['if-range'] === etag) {
      const from = Number(range[1]);
      res.writeHead(206, {
        ...common,
        'content-length': body.length - from,
        'content-range': `bytes ${from}-${body.length - 1}/${body.length}`,
      });
      res.end(body.subarray(from));
      return done(206);
    }
    res.writeHead(200, { ...common, 'content-length': body.length });
    if (mode === 'cut-once') {
      this.modes.delete(path);
      // Half the file, then (once the client has had time to take it) the connection drops.
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      setTimeout(() => res.socket?.destroy(), 200);
      return done(200);
    }
    res.end(body);
    done(200);
  }
}
