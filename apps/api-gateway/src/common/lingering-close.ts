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
 * Four times the body cap lets a client that overshot it a few times over finish writing and read
 * its 413; a refused client holds a socket no longer than an idle keep-alive one may
 * (SERVER_KEEP_ALIVE_TIMEOUT_MS). Nothing read is kept.
 */
export function lingerLimits(maxBodyBytes: number, keepAliveTimeoutMs: number): LingerLimits {
  return { maxBytes: 4 * maxBodyBytes, ms: keepAliveTimeoutMs };
}

/** How long a cut connection waits for its FIN to go out before it is destroyed anyway. */
const FIN_GRACE_MS = 1_000;

/** Connections whose last answer is given. */
const closing = new WeakSet<Socket>();

/** Whether `req` was parsed behind its connection's last answer (pipelined or smuggled): never served. */
export function behindLastAnswer(req: IncomingMessage): boolean {
  return closing.has(req.socket);
}

/**
 * Ends `res` with `body` as its connection's last answer (`Connection: close`), as nginx's
 * lingering close does when the request's body is still on the wire. Node closes a connection as
 * soon as its last response is finished; a client still writing the body it was refused for (a
 * 2 MB POST answered 413 from its headers) then meets a reset, and a client that reads the answer
 * only once its body is sent, as fetch does, never sees it. So the answer and the FIN go out at
 * once, the rest of the body is read and dropped, and the response is finished (Node closes with
 * nothing unread) when the body ends or the client ends its side; past `maxBytes` more or `ms`
 * after the answer the connection is cut.
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
  // What res.end(body) would send: the length, but none for a HEAD, whose answer is its headers.
  if (req.method !== 'HEAD') res.setHeader('Content-Length', Buffer.byteLength(body));
  res.write(body);
  res.flushHeaders();
  socket.end();
  let read = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(deadline);
    // Once the FIN is out, ending the response writes nothing more.
    if (socket.writableFinished || socket.destroyed) res.end();
    else socket.once('finish', () => res.end());
  };
  let cutting = false;
  const cut = () => {
    if (cutting) return;
    cutting = true;
    finish();
    // The FIN may still be on its way to the kernel (ended, not yet finished): destroying now
    // would drop it, and the answer with it if it too is still queued. Read no more, let it go
    // out, then cut. It is a few bytes behind a small answer, so it goes at once; FIN_GRACE_MS
    // bounds it all the same.
    if (socket.writableFinished || socket.destroyed) return void socket.destroy();
    socket.pause();
    const grace = setTimeout(() => socket.destroy(), FIN_GRACE_MS);
    socket.once('finish', () => {
      clearTimeout(grace);
      socket.destroy();
    });
    socket.once('close', () => clearTimeout(grace));
  };
  const deadline = setTimeout(cut, limits.ms);
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > limits.maxBytes) cut();
  });
  req.once('end', finish);
  // Before the server's own listener, which closes on a FIN mid-body as on a bad request.
  socket.prependOnceListener('end', finish);
  req.resume();
}
