import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { behindLastAnswer, endLastAnswer, type LingerLimits } from './lingering-close';

/**
 * A real node:http server refusing from the headers alone, as the gateway's guard does (and, as
 * its listener does, serving nothing behind a last answer), and a raw socket for the client, so
 * the test sees exactly what a client sees: the bytes of the answer, the server's FIN, and any
 * reset.
 */

const MiB = 1024 * 1024;
const ANSWER = JSON.stringify({ error: 'The request body is too large.', code: 'PAYLOAD_TOO_LARGE' });
/** How long a test waits for a close the server must make well before it. */
const GENEROUS_MS = 10_000;

interface Refuser {
  readonly port: number;
  /** The request targets the server was handed, in order. */
  readonly seen: string[];
  /** The errors the server's parser reported ('clientError'). */
  readonly clientErrors: string[];
  /** Each response as its access line records it once closed: its status if finished, else 'aborted'. */
  readonly recorded: (number | 'aborted')[];
  /** Whether the server's side of its first connection closed within GENEROUS_MS. */
  firstConnectionClosed(): Promise<boolean>;
  close(): Promise<void>;
}

async function refuser(limits: LingerLimits): Promise<Refuser> {
  const seen: string[] = [];
  const recorded: (number | 'aborted')[] = [];
  const closes: Promise<void>[] = [];
  const server: Server = createServer((req, res) => {
    if (behindLastAnswer(req)) return;
    seen.push(req.url ?? '');
    res.once('close', () => recorded.push(res.writableFinished ? res.statusCode : 'aborted'));
    res.statusCode = 413;
    res.setHeader('content-type', 'application/json');
    endLastAnswer(req, res, ANSWER, limits);
  });
  const clientErrors: string[] = [];
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    clientErrors.push(error.code ?? error.message);
    socket.destroy();
  });
  server.on('connection', (socket: Socket) =>
    closes.push(new Promise((r) => socket.once('close', () => r()))),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    clientErrors,
    recorded,
    firstConnectionClosed: () => within(closes[0]!),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Whether `event` happens within GENEROUS_MS. */
async function within(event: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), GENEROUS_MS)));
  const happened = await Promise.race([event.then(() => true as const), late]);
  clearTimeout(timer);
  return happened;
}

interface ClientView {
  /** Everything the server sent. */
  readonly received: string;
  /** Whether the server's FIN arrived. */
  readonly ended: boolean;
  /** The first socket error the client saw (ECONNRESET, EPIPE), if any. */
  readonly error: string | undefined;
  /** Body bytes the client handed to its socket. */
  readonly sent: number;
  /** Whether the socket closed (within GENEROUS_MS). */
  readonly closed: boolean;
}

interface Client {
  readonly socket: Socket;
  /** Settles once the socket has closed, or GENEROUS_MS from now. */
  settled(): Promise<ClientView>;
  /** Settles once the server's FIN has arrived or the socket has closed, or GENEROUS_MS from now. */
  endedOrSettled(): Promise<ClientView>;
}

/**
 * Sends `head`, then `bodyBytes` of body (Infinity: until the server stops it) in 64 KiB writes,
 * then `tail`, then ends its side unless `stayOpen`. Like fetch, it keeps writing after the answer
 * and the server's FIN have arrived (a half-open socket).
 */
function client(
  port: number,
  head: string,
  bodyBytes: number,
  opts: { tail?: string; stayOpen?: boolean } = {},
): Client {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let received = '';
  let ended = false;
  let error: string | undefined;
  let sent = 0;
  let closed = false;
  const view = (): ClientView => ({ received, ended, error, sent, closed });
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code));
  const closing = new Promise<void>((r) => socket.once('close', () => r()));
  const ending = new Promise<void>((r) => socket.once('end', () => r()));
  socket.once('end', () => (ended = true));
  void closing.then(() => (closed = true));
  const chunk = Buffer.alloc(64 * 1024, 'x');
  // One write per millisecond at most, as a client on a real network would: it is still writing
  // when the answer arrives.
  const pump = () => {
    if (socket.destroyed) return;
    if (sent < bodyBytes) {
      const part = bodyBytes - sent < chunk.length ? chunk.subarray(0, bodyBytes - sent) : chunk;
      sent += part.length;
      const next = () => setTimeout(pump, 1);
      if (socket.write(part)) next();
      else socket.once('drain', next);
      return;
    }
    if (opts.tail) socket.write(opts.tail);
    if (!opts.stayOpen) socket.end();
  };
  socket.write(head);
  pump();
  return {
    socket,
    settled: () => within(closing).then(view),
    endedOrSettled: () => within(Promise.race([ending, closing])).then(view),
  };
}

const post = (length: number) =>
  `POST /cards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${length}\r\n\r\n`;

/** The one response in `received`, checked whole against its Content-Length. */
function onlyResponse(received: string): { status: number; headers: string; body: string } {
  const headEnd = received.indexOf('\r\n\r\n');
  expect(headEnd).toBeGreaterThan(0);
  const headers = received.slice(0, headEnd);
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(headers)?.[1]);
  const body = received.slice(headEnd + 4);
  expect(body.length).toBe(length);
  return { status: Number(headers.slice(9, 12)), headers, body };
}

/**
 * Writes a byte every 50 ms on a socket the server may have let go of, until the socket fails:
 * the server's kernel answers the first write with a reset, which the next one reports.
 */
async function probe(c: Client): Promise<ClientView> {
  const timer = setInterval(() => c.socket.write('x'), 50);
  const view = await c.settled();
  clearInterval(timer);
  return view;
}

describe('endLastAnswer', () => {
  let server: Refuser | undefined;
  const clients: Client[] = [];
  const open = (...args: Parameters<typeof client>) => {
    const c = client(...args);
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    for (const c of clients.splice(0)) c.socket.destroy();
    await server?.close();
    server = undefined;
  });

  it('lets a client refused for a 2 MB body send it all, read the whole 413 and see a clean close', async () => {
    server = await refuser({ maxBytes: 4 * MiB, ms: GENEROUS_MS * 2 });
    const body = 2 * MiB;
    const view = await open(server.port, post(body), body).settled();
    expect(view).toMatchObject({ closed: true, ended: true, error: undefined, sent: body });
    const res = onlyResponse(view.received);
    expect(res.status).toBe(413);
    expect(res.headers).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE' });
    // Its FIN comes, for the parser that was let go mid-body, in mid-body: that is no bad request.
    expect(await server.firstConnectionClosed()).toBe(true);
    expect(server.clientErrors).toEqual([]);
  });

  it('cuts off a client that goes on sending past the byte cap, long before the deadline', async () => {
    server = await refuser({ maxBytes: 256 * 1024, ms: GENEROUS_MS * 3 });
    // It never stops sending, so only the cap can close this within GENEROUS_MS.
    const view = await open(server.port, post(1024 * MiB), Infinity).settled();
    expect(view.closed).toBe(true);
    expect(view.error).toMatch(/^(ECONNRESET|EPIPE)$/);
  });

  it('closes, cleanly, the connection of a client that stops sending and never closes it', async () => {
    server = await refuser({ maxBytes: 4 * MiB, ms: 300 });
    const c = open(server.port, post(2 * MiB), 1_000, { stayOpen: true });
    const view = await c.endedOrSettled();
    expect(view).toMatchObject({ ended: true, error: undefined });
    expect(onlyResponse(view.received).status).toBe(413);
    expect(await server.firstConnectionClosed()).toBe(true);
    // The client learns it only by writing again.
    expect(await probe(c)).toMatchObject({
      closed: true,
      error: expect.stringMatching(/^(ECONNRESET|EPIPE)$/),
    });
  });

  it('never reads what follows the refused body as a next request', async () => {
    server = await refuser({ maxBytes: 4 * MiB, ms: GENEROUS_MS * 2 });
    const smuggled = 'GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const view = await open(server.port, post(MiB), MiB, { tail: smuggled }).settled();
    expect(view).toMatchObject({ closed: true, error: undefined });
    expect(onlyResponse(view.received).status).toBe(413);
    // The client can be done before the server has read it all.
    expect(await server.firstConnectionClosed()).toBe(true);
    expect(server.seen).toEqual(['/cards']);
    expect(server.clientErrors).toEqual([]);
  });

  it.each<[string, LingerLimits, number, { stayOpen?: boolean }]>([
    ['the client ends its side mid-body', { maxBytes: 4 * MiB, ms: GENEROUS_MS * 2 }, 1_000, {}],
    ['past the byte cap', { maxBytes: 64 * 1024, ms: GENEROUS_MS * 2 }, Infinity, {}],
    ['at the deadline', { maxBytes: 4 * MiB, ms: 300 }, 1_000, { stayOpen: true }],
  ])('records the answer as sent when the linger ends because %s', async (_, limits, bytes, opts) => {
    server = await refuser(limits);
    await open(server.port, post(2 * MiB), bytes, opts).endedOrSettled();
    expect(await server.firstConnectionClosed()).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(server.recorded).toEqual([413]);
  });

  it('sends and records the answer when the body that came with the headers is already past the cap', async () => {
    server = await refuser({ maxBytes: 64 * 1024, ms: GENEROUS_MS * 2 });
    // Read at once with the headers, before the FIN behind the answer has gone out: the cut must
    // not drop it.
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    clients.push({ socket } as Client);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const ended = new Promise((r) => socket.once('end', r));
    socket.write(post(2 * MiB) + 'x'.repeat(MiB));
    expect(await within(ended)).toBe(true);
    expect(onlyResponse(received).status).toBe(413);
    expect(await server.firstConnectionClosed()).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(server.recorded).toEqual([413]);
  });

  it('answers a body Node cannot frame (its last coding not chunked) and records it as sent', async () => {
    server = await refuser({ maxBytes: 4 * MiB, ms: GENEROUS_MS * 2 });
    const head = 'POST /cards HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: xchunked\r\n\r\n';
    const view = await open(server.port, head, 1_000).settled();
    expect(onlyResponse(view.received).status).toBe(413);
    expect(await server.firstConnectionClosed()).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(server.recorded).toEqual([413]);
  });

  it('sends a HEAD refused with its body on the wire the headers alone, as for any HEAD', async () => {
    server = await refuser({ maxBytes: 4 * MiB, ms: GENEROUS_MS * 2 });
    const head = 'HEAD /cards HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000\r\n\r\n';
    const view = await open(server.port, head, 5000).settled();
    expect(view).toMatchObject({ closed: true, ended: true, error: undefined });
    expect(view.received).toMatch(/^HTTP\/1\.1 413 [^]*\r\nconnection: close\r\n[^]*\r\n\r\n$/i);
    expect(view.received).not.toMatch(/content-length/i);
  });

  it('does not hold a connection whose request was read whole', async () => {
    server = await refuser({ maxBytes: 4 * MiB, ms: GENEROUS_MS * 3 });
    const c = open(server.port, 'GET /cards HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 0, { stayOpen: true });
    expect(await c.endedOrSettled()).toMatchObject({ ended: true, error: undefined });
    // Lingering would hold it for three times GENEROUS_MS.
    expect(await server.firstConnectionClosed()).toBe(true);
  });
});
