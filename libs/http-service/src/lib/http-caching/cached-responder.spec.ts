import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Answer, CachedResponder, requestCacheKey } from './cached-responder';
import { ResponseCache } from './response-cache';
import { ManualVersions } from '../../testing/manual-versions';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('CachedResponder', () => {
  let server: Server;
  let url: string;
  let versions: ManualVersions;
  let responder: CachedResponder;
  let compute: (req: IncomingMessage) => Promise<Answer>;
  let computed: number;

  beforeEach(async () => {
    versions = new ManualVersions(1);
    responder = new CachedResponder(new ResponseCache(1_000_000), versions);
    computed = 0;
    compute = async () => ({ body: { data: [computed], meta: { n: 1 } } });
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const perRequest = req.headers['x-usage']
        ? { name: '_usage', value: req.headers['x-usage'] }
        : undefined;
      void responder.send(req, res, { key: requestCacheKey(req, 'plan', {}), perRequest }, () => {
        computed++;
        return compute(req);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((r) => server.close(r));
  });

  const send = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Reply>((done, fail) => {
      const req = request(`${url}${path}`, { method, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', fail);
      req.end();
    });

  /** Makes the computation wait until the function returned is called, then answer `{ data: [value] }`. */
  const holdCompute = (value: string): (() => void) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    compute = async () => {
      await gate;
      return { body: { data: [value] } };
    };
    return () => release();
  };

  /** One GET's status, coding and body decoded from that coding. */
  const decoded = (path: string, headers: Record<string, string>) =>
    new Promise<{ coding: string | undefined; text: string }>((done, fail) => {
      const req = request(`${url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const coding = res.headers['content-encoding'];
          const raw = Buffer.concat(chunks);
          try {
            const body =
              coding === 'gzip' ? gunzipSync(raw) : coding === 'br' ? brotliDecompressSync(raw) : raw;
            done({ coding, text: body.toString('utf8') });
          } catch (error) {
            fail(error as Error);
          }
        });
      });
      req.on('error', fail);
      req.end();
    });

  it('sends an answer that decodes whole every time in each coding, cached or not, with or without a tail', async () => {
    compute = async () => ({
      json: JSON.stringify({ data: Array.from({ length: 400 }, (_, i) => ({ i })) }),
    });
    const expected = { data: Array.from({ length: 400 }, (_, i) => ({ i })) };
    for (const usage of [undefined, '42']) {
      for (let i = 0; i < 5; i++) {
        for (const coding of ['gzip', 'br']) {
          const reply = await decoded(`/big-${usage ?? 'none'}`, {
            'accept-encoding': coding,
            ...(usage ? { 'x-usage': usage } : {}),
          });
          expect(reply.coding).toBe(coding);
          expect(JSON.parse(reply.text)).toEqual(usage ? { ...expected, _usage: usage } : expected);
        }
      }
    }
  });

  it('keeps an answer from its second request on, until the version moves', async () => {
    await send('/a');
    await send('/b');
    await send('/a');
    expect(computed).toBe(3);
    await send('/a');
    await send('/a');
    expect(computed).toBe(3);
    // A one-off target never took a place.
    expect(responder.stats()).toMatchObject({ enabled: true, entries: 1 });
    versions.set(2);
    const after = await send('/a');
    expect(computed).toBe(4);
    expect(after.headers['x-data-version']).toBe('2');
    // Seen before the version moved: kept again at once.
    await send('/a');
    expect(computed).toBe(4);
  });

  describe('across versions, with the cards each one changed', () => {
    /** '/a' is made of card-a, '/b' of card-b, '/page' of no card alone: each warmed (kept). */
    const warm = async () => {
      compute = async (req) => {
        const path = req.url!;
        const cards = path === '/a' ? ['card-a'] : path === '/b' ? ['card-b'] : undefined;
        return { body: { data: [path, computed] }, cards };
      };
      for (const path of ['/a', '/b', '/page', '/a', '/b', '/page']) await send(path);
      expect(computed).toBe(6);
    };
    /** Lets the responder read the log and move its cache. */
    const settled = () => new Promise((r) => setImmediate(r));

    it('keeps the answers of cards the version did not change, and computes the others again', async () => {
      await warm();
      const before = await send('/a');
      versions.changes = async () => new Set(['card-b']);
      versions.set(2);
      await settled();
      const a = await send('/a');
      expect(computed).toBe(6);
      expect(a.body).toBe(before.body);
      expect(a.headers['etag']).toBe(before.headers['etag']);
      expect(a.headers['x-data-version']).toBe('2');
      await send('/b');
      await send('/page');
      expect(computed).toBe(8);
      expect(versions.asked).toEqual([[1, 2]]);
      expect(responder.stats()).toMatchObject({ version: 2, carried: 1, outdated: 2 });
    });

    it('drops every answer when the log cannot tell what changed', async () => {
      await warm();
      versions.set(2);
      await settled();
      await send('/a');
      expect(computed).toBe(7);
    });

    it('keeps nothing while it reads the log, then catches up with every version that came meanwhile', async () => {
      await warm();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      versions.changes = async () => {
        await gate;
        return new Set(['card-b']);
      };
      versions.set(2);
      // Not yet known to be unchanged: computed, and not kept under version 2 (it would empty the cache).
      await send('/a');
      await send('/a');
      expect(computed).toBe(8);
      versions.set(3);
      release();
      await settled();
      await settled();
      expect(versions.asked).toEqual([
        [1, 2],
        [2, 3],
      ]);
      const a = await send('/a');
      expect(computed).toBe(8);
      expect(a.headers['x-data-version']).toBe('3');
    });

    it('keeps the answers through a time the version was unknown if the log covers the gap', async () => {
      await warm();
      versions.set(null);
      await send('/a');
      expect(computed).toBe(7);
      versions.changes = async () => new Set();
      versions.set(5);
      await settled();
      await send('/a');
      expect(computed).toBe(7);
      expect(versions.asked).toEqual([[1, 5]]);
    });
  });

  it('caches nothing while the version is unknown, but still tags and validates', async () => {
    versions.set(null);
    compute = async () => ({ body: { data: ['same'] } });
    const first = await send('/a');
    const second = await send('/a', { 'if-none-match': String(first.headers['etag']) });
    expect(computed).toBe(2);
    expect(first.headers['x-data-version']).toBeUndefined();
    expect(second.status).toBe(304);
  });

  it('does not keep an answer computed while a newer version was announced', async () => {
    compute = async () => {
      versions.set(7);
      return { body: { data: ['computed during the change'] } };
    };
    await send('/a');
    await send('/a');
    expect(computed).toBe(2);
  });

  it('shares one computation among concurrent identical requests', async () => {
    const release = holdCompute('slow');
    const replies = Promise.all([send('/a'), send('/a'), send('/a')]);
    await new Promise((r) => setTimeout(r, 50));
    release();
    const all = await replies;
    expect(computed).toBe(1);
    expect(all.map((r) => r.body)).toEqual(Array(3).fill('{"data":["slow"]}'));
  });

  it('counts a computation shared by concurrent requests once toward a place in the cache', async () => {
    const release = holdCompute('shared');
    const both = Promise.all([send('/a'), send('/a')]);
    await new Promise((r) => setTimeout(r, 50));
    release();
    await both;
    expect(computed).toBe(1);
    await send('/a'); // the second sight: computed again, and kept
    await send('/a');
    expect(computed).toBe(2);
  });

  it('appends each request’s own per-request member to the cached part', async () => {
    await send('/a', { 'x-usage': 'seen once' });
    const a = await send('/a', { 'x-usage': 'first' });
    const b = await send('/a', { 'x-usage': 'second' });
    expect(computed).toBe(2);
    expect(JSON.parse(a.body)).toEqual({ data: [2], meta: { n: 1 }, _usage: 'first' });
    expect(JSON.parse(b.body)).toEqual({ data: [2], meta: { n: 1 }, _usage: 'second' });
    expect(a.headers['etag']).toBe(b.headers['etag']);
    expect(String(a.headers['etag'])).toMatch(/^W\//);
  });

  it('sends a JSON text given in parts as the parts one after another, characters of every width intact', async () => {
    const parts = ['{"data":["Æther ', 'Vial — ', '天使', '","🂡"],"meta":{"n":1}}'];
    compute = async () => ({ json: parts });
    const plain = await send('/a');
    expect(plain.body).toBe(parts.join(''));
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(parts.join(''))));
    const own = await send('/b', { 'x-usage': 'mine' });
    expect(JSON.parse(own.body)).toEqual({
      data: ['Æther Vial — 天使', '🂡'],
      meta: { n: 1 },
      _usage: 'mine',
    });
  });

  it('never caches nor tags a POST', async () => {
    const a = await send('/a', {}, 'POST');
    await send('/a', {}, 'POST');
    expect(computed).toBe(2);
    expect(a.status).toBe(200);
    expect(a.headers['etag']).toBeUndefined();
    expect(a.headers['cache-control']).toBeUndefined();
  });

  it('lets a failed computation fail every request that shared it, and caches nothing', async () => {
    compute = async () => {
      throw new Error('database down');
    };
    const failures: unknown[] = [];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      responder
        .send(req, res, { key: requestCacheKey(req, 'plan', {}) }, () => {
          computed++;
          return compute(req);
        })
        .catch((error: unknown) => {
          failures.push(error);
          res.writeHead(503).end();
        });
    });
    const replies = await Promise.all([send('/a'), send('/a')]);
    expect(replies.map((r) => r.status)).toEqual([503, 503]);
    expect(failures).toHaveLength(2);
    compute = async () => ({ body: { data: ['back'] } });
    expect((await send('/a')).body).toBe('{"data":["back"]}');
  });
});
