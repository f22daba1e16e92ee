import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long, and how much, a refused client may go on sending after its answer. */
export interface LingerLimits {
  /** Bytes read (and dropped) after the answer; one more and the connection is cut. */
  readonly maxBytes: number;
  /** Time from the answer to the close, whatever the client is doing then. */
  readonly ms: number;
}

/**
 * The gateway's limits: four times the body cap lets a client that overshot the cap a few times
 * over finish writing and read its 413 (a client sending more was never going to be served, and
 * only loses a clean read); the time is how long the server keeps any idle keep-alive connection
 * (SERVER_KEEP_ALIVE_TIMEOUT_MS), so a refused client holds a socket no longer than an idle one
 * may. Nothing read is kept, so the cost is a socket for at most that long.
 */
export function lingerLimits(maxBodyBytes: number, keepAliveTimeoutMs: number): LingerLimits {
  return { maxBytes: 4 * maxBodyBytes, ms: keepAliveTimeoutMs };
}

/** Connections whose last answer is given: nothing more that arrives on them is served. */
const closing = new WeakSet<Socket>();

/** Whether `req` came in behind its connection's last answer (a pipelined or smuggled request). */
export function behindLastAnswer(req: IncomingMessage): boolean {
  return closing.has(req.socket);
}

/**
 * Ends `res` with `body` as its connection's last answer (`Connection: close`), closing the
 * connection the way nginx's lingering close does when the request's body is still on the wire.
 *
 * Node's server closes a `Connection: close` connection as soon as its response is finished: FIN,
 * then destroy. A client still writing a body it was refused for (a 2 MB POST answered 413 from
 * its headers) then has unread bytes in the gateway's kernel buffer, and the kernel answers them
 * with RST: the client's write fails (EPIPE, ECONNRESET) and a client that reads the answer only
 * once its body is sent, as fetch does, never sees it.
 *
 * Instead the answer is written whole and the connection's FIN sent at once, but the response is
 * finished (and Node closes the connection) only once the rest of the body has been read and
 * dropped: when it ends, when the client ends its side, or, cutting the connection, past
 * `maxBytes` more or `ms` after the answer. A request whose body was read whole closes as Node
 * closes it. Whatever is parsed behind the refused request is never served (`behindLastAnswer`).
 */
export function endLastAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  limits: LingerLimits,
): void {
  const socket = req.socket;
  closing.add(socket);
  res.setHeader('connection', 'close');
  // Read whole; queued behind an answer still being sent on a pipelined connection; or a body
  // whose last coding is not chunked, which Node's parser refuses (and closes) as it arrives.
  const te = req.headers['transfer-encoding'];
  if (req.complete || res.socket !== socket || (te !== undefined && !/\bchunked\s*$/i.test(te))) {
    res.end(body);
    return;
  }
  // What `res.end(body)` would send: the length, but for a HEAD, whose answer is its headers alone.
  if (req.method !== 'HEAD') res.setHeader('Content-Length', Buffer.byteLength(body));
  res.write(body);
  res.flushHeaders();
  socket.end();
  let read = 0;
  let finished = false;
  // The answer and the FIN are out: ending writes nothing more, and Node's close finds nothing unread.
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    if (socket.writableFinished || socket.destroyed) res.end();
    else socket.once('finish', () => res.end());
  };
  const cut = () => {
    finish();
    socket.destroy();
  };
  const deadline = setTimeout(cut, limits.ms);
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > limits.maxBytes) cut();
  });
  req.once('end', finish);
  // Ahead of the server's own listener, which takes a FIN mid-body for a bad request and closes.
  socket.prependOnceListener('end', finish);
  req.resume();
}
