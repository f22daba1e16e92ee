import { createServer, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { newKey } from './keys';
import { wire } from './raw-http';
import { startStack, Stack } from './stack';

/** Far more than the loopback's buffers hold (about 4 MB here), so a client that reads nothing stalls the sender. */
const PAGE_BYTES = 32 * 1024 * 1024;
const WRITE_IDLE_MS = 1_000;

/**
 * A stand-in api-v1 whose `/v1/cards` is a 32 MB JSON page, written as fast as the gateway takes
 * it, recording whether each was sent in full or its connection closed before; anything else (the
 * gateway's health probe, `/v1/games`) gets a small answer.
 */
async function startBigPageUpstream(): Promise<{
  url: string;
  answers: ('sent' | 'closed')[];
  close(): Promise<void>;
}> {
  const answers: ('sent' | 'closed')[] = [];
  const slice = Buffer.alloc(64 * 1024, 'x');
  const server: Server = createServer((req, res) => {
    req.resume();
    if (!req.url?.startsWith('/v1/cards')) {
      res.setHeader('content-type', 'application/json');
      res.end('{"data":[]}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(PAGE_BYTES) });
    let sent = 0;
    const pump = () => {
      while (sent < PAGE_BYTES) {
        sent += slice.length;
        if (!res.write(slice)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => answers.push(res.writableFinished ? 'sent' : 'closed'));
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A client that sends `payload` and then reads nothing: its socket, paused from the start. */
function neverReads(port: number, payload: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => socket.destroy());
  socket.on('connect', () => socket.write(payload));
  return socket;
}

/**
 * Starts reading a paused socket and counts what it still gets until the server closes it (a
 * cut), or until nothing came for 3 s (the server kept it open). Bytes in all, and whether it was cut.
 */
function drainRest(socket: Socket): Promise<{ bytes: number; closed: boolean }> {
  return new Promise((done) => {
    let bytes = 0;
    const idle = setTimeout(() => finish(false), 3_000);
    const finish = (closed: boolean) => {
      clearTimeout(idle);
      socket.destroy();
      done({ bytes, closed });
    };
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      idle.refresh();
    });
    socket.on('close', () => finish(true));
    socket.resume();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a client that stops reading is cut after WRITE_IDLE_TIMEOUT_MS', () => {
  let stack: Stack;
  let upstream: Awaited<ReturnType<typeof startBigPageUpstream>>;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    upstream = await startBigPageUpstream();
    stack = await startStack({
      v1Url: upstream.url,
      env: {
        WRITE_IDLE_TIMEOUT_MS: String(WRITE_IDLE_MS),
        // One pooled socket to api-v1, and a body deadline far away: only the write-idle deadline
        // can free the socket the stalled answer holds.
        UPSTREAM_MAX_SOCKETS: '1',
        UPSTREAM_BODY_TIMEOUT_MS: '120000',
      },
    });
    port = Number(new URL(stack.gatewayUrl).port);
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await stack?.close();
    await upstream?.close();
  });

  it('a large v1 page the client never reads: cut, its upstream socket freed for the next request', async () => {
    const key = await newKey('enterprise');
    const stalled = neverReads(port, wire('GET /v1/cards?limit=100 HTTP/1.1', { 'x-api-key': key }));
    sockets.push(stalled);

    // Bounded wait for api-v1 to see its answer's connection closed before the end.
    for (let i = 0; i < 50 && upstream.answers.length === 0; i++) await sleep(200);
    expect(upstream.answers).toEqual(['closed']);

    // The one pooled socket is free again: an ordinary request is answered.
    const res = await fetch(`${stack.gatewayUrl}/v1/games`, {
      headers: { 'x-api-key': await newKey('starter') },
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(200);

    // What the stalled client gets when it reads again: what was buffered, then the end.
    const rest = await drainRest(stalled);
    expect(rest.closed).toBe(true);
    expect(rest.bytes).toBeLessThan(PAGE_BYTES);
  }, 30_000);

  /**
   * Asks for `path` `requests` times in one go (pipelined) and reads nothing for 5 s: what the
   * client gets when it reads again, against the bytes of every answer.
   */
  async function stallOn(
    path: string,
    requests: number,
  ): Promise<{ bytes: number; closed: boolean; whole: number }> {
    const size = (await (await fetch(`${stack.gatewayUrl}${path}`)).arrayBuffer()).byteLength;
    const stalled = neverReads(port, wire(`GET ${path} HTTP/1.1`).repeat(requests));
    sockets.push(stalled);
    await sleep(WRITE_IDLE_MS * 5);
    return { ...(await drainRest(stalled)), whole: size * requests };
  }

  it('page assets the client never reads (pipelined requests): cut, not held', async () => {
    const docs = await (await fetch(`${stack.gatewayUrl}/docs`)).text();
    const base = /\/assets\/[0-9a-f]+\//.exec(docs)?.[0];
    expect(base).toBeDefined();
    // swagger-ui-bundle.js is 1.7 MB: 12 of them are well past what the loopback buffers hold.
    const rest = await stallOn(`${base}swagger-ui-bundle.js`, 12);
    expect(rest.closed).toBe(true);
    expect(rest.bytes).toBeLessThan(rest.whole);
  }, 30_000);

  it('the OpenAPI document the client never reads (pipelined requests): cut, not held', async () => {
    const rest = await stallOn('/openapi/v1.json', 150); // 65 KB each: about 10 MB
    expect(rest.closed).toBe(true);
    expect(rest.bytes).toBeLessThan(rest.whole);
  }, 30_000);
});
