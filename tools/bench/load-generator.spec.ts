import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runLoad, runWalk } from './load-generator';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly key: string | undefined;
  readonly tag: string | undefined;
  readonly body: string;
}

describe('load generator', () => {
  let server: Server;
  let url: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '';
        seen.push({
          method: req.method ?? '',
          path,
          key: req.headers['x-api-key'] as string | undefined,
          tag: req.headers['if-none-match'] as string | undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const page = /^\/pages\?n=(\d)$/.exec(path);
        if (page) {
          const n = Number(page[1]);
          if (n < 3) res.setHeader('link', `</pages?n=${n + 1}>; rel="next"`);
          res.end('{}');
        } else if (path === '/missing') {
          res.statusCode = 404;
          res.end();
        } else if (req.headers['if-none-match']) {
          res.statusCode = 304;
          res.end();
        } else res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('draws a path, its headers and the next key for every request, and counts failures', async () => {
    const result = await runLoad({
      kind: 'load',
      url,
      paths: ['/a', '/b', '/missing'],
      pathHeaders: [{ 'if-none-match': '"a"' }, {}, {}],
      distribution: 'uniform',
      seed: 1,
      keys: ['k1', 'k2', 'k3'],
      connections: 2,
      duration: 1,
    });
    expect(new Set(seen.map((s) => s.path))).toEqual(new Set(['/a', '/b', '/missing']));
    expect(new Set(seen.map((s) => s.key))).toEqual(new Set(['k1', 'k2', 'k3']));
    expect(seen.every((s) => (s.path === '/a' ? s.tag === '"a"' : s.tag === undefined))).toBe(true);
    expect(result.requests).toBeGreaterThan(10);
    expect(result.statuses['404']).toBeGreaterThan(0);
    // 304 and 404 are failures unless the scenario says otherwise
    expect(result.failures).toBe((result.statuses['304'] ?? 0) + (result.statuses['404'] ?? 0));
    expect(result.p50).toBeLessThanOrEqual(result.p99);
    expect(result.bytesPerResponse).toBeGreaterThan(0);
  });

  it('counts the statuses a scenario accepts as successes', async () => {
    const result = await runLoad({
      kind: 'load',
      url,
      paths: ['/a'],
      pathHeaders: [{ 'if-none-match': '"a"' }],
      okStatuses: [200, 304],
      distribution: 'cycle',
      seed: 1,
      connections: 1,
      duration: 1,
    });
    expect(result.statuses['304']).toBe(result.requests);
    expect(result.failures).toBe(0);
  });

  it('sends a fresh batch body of random ids with each POST', async () => {
    await runLoad({
      kind: 'load',
      url,
      method: 'POST',
      paths: ['/batch'],
      batch: { ids: ['x', 'y', 'z'], size: 5 },
      distribution: 'cycle',
      seed: 1,
      connections: 1,
      duration: 1,
    });
    // (a request of the previous test may still arrive after it ended)
    const posts = seen.filter((s) => s.path === '/batch');
    const bodies = posts.map((s) => JSON.parse(s.body) as { cardId: string }[]);
    expect(posts.length).toBeGreaterThan(10);
    expect(posts.every((s) => s.method === 'POST')).toBe(true);
    expect(bodies.every((b) => b.length === 5 && b.every((i) => ['x', 'y', 'z'].includes(i.cardId)))).toBe(
      true,
    );
    expect(new Set(posts.map((s) => s.body)).size).toBeGreaterThan(1);
  });

  it('walks a listing to its end by the Link header, page after page', async () => {
    const result = await runWalk({ kind: 'walk', url, firstPath: '/pages?n=1', keys: ['k'], walks: 2 });
    expect(result).toMatchObject({ walks: 2, pages: 3, failures: 0, statuses: { '200': 6 } });
    expect(seen.map((s) => s.path).filter((p) => p.startsWith('/pages'))).toEqual([
      '/pages?n=1',
      '/pages?n=2',
      '/pages?n=3',
      '/pages?n=1',
      '/pages?n=2',
      '/pages?n=3',
    ]);
  });
});
