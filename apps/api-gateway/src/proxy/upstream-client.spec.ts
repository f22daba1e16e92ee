import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { writeParts } from '@tcg/http-service/testing';
import { type CutReason, type UpstreamOptions, UpstreamClient, UpstreamFailure } from './upstream-client';

/** A local service whose behaviour per request the test decides, counting the sockets it sees. */
async function service(handle: (req: IncomingMessage, res: ServerResponse, nth: number) => void) {
  let nth = 0;
  const sockets = new Set<Socket>();
  let closedSockets = 0;
  const server: Server = createServer((req, res) => handle(req, res, ++nth));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => {
      sockets.delete(s);
      closedSockets += 1;
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    closedSockets: () => closedSockets,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Runs one call through the client behind a throw-away front server, as the gateway does. */
async function call(client: UpstreamClient, method = 'GET'): Promise<number | UpstreamFailure> {
  return new Promise((done) => {
    const front = createServer((_req, res) => {
      client.forward(
        { method, path: '/x', headers: {}, body: method === 'POST' ? Buffer.from('{}') : undefined },
        res,
        (f) => {
          done(f);
          res.destroy();
        },
      );
    });
    front.listen(0, '127.0.0.1', () => {
      const port = (front.address() as AddressInfo).port;
      const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      });
      req.on('error', () => undefined);
      req.end();
    });
    front.unref();
  });
}

/**
 * Six parts 300 ms apart after the headers: 1.5 s of body, longer than the 1 s body deadline of
 * `options`, with no pause near it.
 */
function sendSlowly(res: ServerResponse, headers: Record<string, string | number>): void {
  res.writeHead(200, headers);
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    res.write('part;');
    if (++sent === 6) {
      clearInterval(timer);
      res.end();
    }
  }, 300);
  res.on('close', () => clearInterval(timer));
}

const options = (url: URL) => ({
  name: 'svc',
  url,
  headersTimeoutMs: 300,
  bodyTimeoutMs: 1_000,
  maxSockets: 1,
  maxInFlight: 2,
  freeSocketTimeoutMs: 4_000,
  writeIdleTimeoutMs: 1_000,
});

describe('UpstreamClient', () => {
  it('retries an idempotent request once when its reused socket turns out closed', async () => {
    // The second request on a connection finds it dropped, as when a keep-alive timeout races.
    const svc = await service((req, res, nth) => (nth === 2 ? req.socket.destroy() : res.end('ok')));
    const client = new UpstreamClient(options(svc.url));
    try {
      expect(await call(client)).toBe(200);
      expect(await call(client)).toBe(200);
    } finally {
      await client.close();
      await svc.close();
    }
  });

  it('does not retry a POST, which the service may have acted on', async () => {
    const svc = await service((req, res, nth) => (nth === 2 ? req.socket.destroy() : res.end('ok')));
    const client = new UpstreamClient(options(svc.url));
    try {
      expect(await call(client, 'POST')).toBe(200);
      expect(await call(client, 'POST')).toMatchObject({ kind: 'unavailable' });
    } finally {
      await client.close();
      await svc.close();
    }
  });

  it.each<[string, (req: IncomingMessage) => void, UpstreamFailure['kind']]>([
    ['drops on a fresh connection', (req) => req.socket.destroy(), 'unavailable'],
    ['never answers', () => undefined, 'timeout'],
  ])('sends a GET the service %s only once', async (_, handle, kind) => {
    let seen = 0;
    const svc = await service((req) => {
      seen += 1;
      handle(req);
    });
    const client = new UpstreamClient(options(svc.url));
    try {
      expect(await call(client)).toMatchObject({ kind });
      expect(seen).toBe(1);
    } finally {
      await client.close();
      await svc.close();
    }
  });

  it('times out a request waiting for a pooled socket, and turns away those beyond the bound', async () => {
    const svc = await service(() => undefined); // never answers
    const client = new UpstreamClient(options(svc.url));
    try {
      // One socket, two in flight: one on the socket, one waiting for it, one turned away.
      const results = await Promise.all([call(client), call(client), call(client)]);
      expect(results.map((r) => (typeof r === 'number' ? r : r.kind)).sort()).toEqual([
        'busy',
        'timeout',
        'timeout',
      ]);
    } finally {
      await client.close();
      await svc.close();
    }
  });

  it('closes an idle pooled socket after the free-socket timeout', async () => {
    const svc = await service((_req, res) => res.end('ok'));
    const client = new UpstreamClient({ ...options(svc.url), freeSocketTimeoutMs: 100 });
    try {
      expect(await call(client)).toBe(200);
      while (svc.closedSockets() === 0) await new Promise((r) => setTimeout(r, 20));
      expect(svc.closedSockets()).toBe(1);
    } finally {
      await client.close();
      await svc.close();
    }
  });
  it.each([
    [
      'a download (attachment) arrives whole: its deadline is the pause between parts',
      'attachment; filename="x.gz"',
      6,
    ],
    ['another answer is cut at the body deadline', undefined, expect.any(Number)],
  ])('%s', async (_, disposition, parts) => {
    const svc = await service((_req, res) =>
      sendSlowly(res, disposition ? { 'content-disposition': disposition } : {}),
    );
    const client = new UpstreamClient(options(svc.url));
    try {
      const body = await new Promise<string>((done) => {
        const front = createServer((_req, res) =>
          client.forward({ method: 'GET', path: '/x', headers: {} }, res, () => res.destroy()),
        );
        front.listen(0, '127.0.0.1', () => {
          const port = (front.address() as AddressInfo).port;
          request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
            let text = '';
            res.on('data', (b: Buffer) => (text += b.toString()));
            res.on('error', () => undefined);
            res.on('close', () => done(text));
          })
            .on('error', () => done(''))
            .end();
        });
        front.unref();
      });
      const received = body.split(';').length - 1;
      expect(received).toEqual(parts);
      if (!disposition) expect(received).toBeLessThan(6);
    } finally {
      await client.close();
      await svc.close();
    }
  });

  // Held until whole (see HELD_BODY_BYTES): nothing has reached the client, so the gateway answers.
  it.each<[string, (res: ServerResponse) => void, UpstreamFailure]>([
    [
      'misses the body deadline',
      (res) => sendSlowly(res, { 'content-length': 6 * 'part;'.length }),
      { kind: 'timeout' },
    ],
    [
      'is cut by the service mid-body',
      (res) => {
        res.writeHead(200, { 'content-length': 100 });
        res.write('{"partial":');
        setTimeout(() => res.socket?.destroy(), 50);
      },
      { kind: 'unavailable', error: expect.any(String) },
    ],
  ])('fails an answer of known length that %s, before any of it is sent', async (_, answer, failure) => {
    const svc = await service((_req, res) => answer(res));
    const client = new UpstreamClient(options(svc.url));
    try {
      expect(await call(client)).toEqual(failure);
    } finally {
      await client.close();
      await svc.close();
    }
  });

  it('sends an answer of known length whole, with its status and headers, once it has all of it', async () => {
    const body = Buffer.from(JSON.stringify({ data: 'x'.repeat(40_000) }));
    const svc = await service((_req, res) => {
      res.writeHead(201, { 'content-length': body.length, 'content-type': 'application/json', etag: '"t"' });
      // In slices, each in a turn of its own: the gateway reads the body in several parts.
      const slice = (at: number): void => {
        if (at >= body.length) return void res.end();
        res.write(body.subarray(at, at + 4096));
        setTimeout(() => slice(at + 4096), 2);
      };
      slice(0);
    });
    const client = new UpstreamClient(options(svc.url));
    const front = createServer((_req, res) =>
      client.forward({ method: 'GET', path: '/x', headers: {} }, res, () => res.destroy()),
    );
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const got = await new Promise<{ status?: number; headers: object; body: Buffer }>((done, fail) =>
        request({ host: '127.0.0.1', port: (front.address() as AddressInfo).port, agent: false }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (b: Buffer) => parts.push(b));
          res.on('end', () =>
            done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }),
          );
        })
          .on('error', fail)
          .end(),
      );
      expect(got.status).toBe(201);
      expect(got.headers).toMatchObject({
        'content-length': String(body.length),
        'content-type': 'application/json',
        etag: '"t"',
      });
      expect(got.body.equals(body)).toBe(true);
    } finally {
      front.close();
      await client.close();
      await svc.close();
    }
  });

  it.each<[string, CutReason, Partial<UpstreamOptions>, string | undefined]>([
    ['an answer the client takes nothing of', 'write_idle', { writeIdleTimeoutMs: 300 }, undefined],
    [
      'a download below the minimum average rate after the grace',
      'too_slow',
      { downloads: { minBytesPerSecond: 1e9, graceMs: 300, maxDurationMs: 60_000 } },
      'attachment',
    ],
    [
      // 16 KiB/s, the default: the first second's burst into the sockets' buffers (megabytes on
      // loopback) averaged from the start would keep it above the rate for minutes.
      'a download whose client stops taking anything once its buffers are full',
      'too_slow',
      { downloads: { minBytesPerSecond: 16_384, graceMs: 1_000, maxDurationMs: 60_000 } },
      'attachment',
    ],
    [
      'a download past its longest duration',
      'max_duration',
      { downloads: { minBytesPerSecond: 0, graceMs: 0, maxDurationMs: 1_000 } },
      'attachment',
    ],
  ])('cuts %s (%s) and closes its upstream socket at once', async (_, reason, bounds, disposition) => {
    // 64 MiB, sent as fast as the gateway takes it: far more than the sockets' buffers hold.
    const svc = await service((_req, res) => {
      res.writeHead(200, disposition ? { 'content-disposition': disposition } : {});
      writeParts(res, Buffer.alloc(64 * 1024), 1024);
    });
    const cuts: CutReason[] = [];
    const client = new UpstreamClient({
      ...options(svc.url),
      bodyTimeoutMs: 60_000,
      writeIdleTimeoutMs: 60_000,
      ...bounds,
      onCut: (r) => cuts.push(r),
    });
    const front = createServer((_req, res) =>
      client.forward({ method: 'GET', path: '/x', headers: {} }, res, () => res.destroy()),
    );
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    // A client that sends its request and never reads a byte of the answer.
    const reader = connect((front.address() as AddressInfo).port, '127.0.0.1');
    reader.pause();
    reader.on('error', () => undefined);
    reader.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    try {
      for (let i = 0; i < 100 && svc.closedSockets() === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(cuts).toEqual([reason]);
      expect(svc.closedSockets()).toBe(1);
    } finally {
      reader.destroy();
      await client.close();
      front.close();
      await svc.close();
    }
  });
});
