import type { IncomingMessage, ServerResponse } from 'node:http';

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

/**
 * Makes `res` the connection's last answer (`Connection: close`) and closes the connection the
 * way nginx's lingering close does when the request's body is still on the wire.
 *
 * Node's server ends a `Connection: close` response with `socket.destroySoon()`: FIN, then
 * destroy once the FIN is written. A client still writing a body it was refused for (a 2 MB POST
 * answered 413 from its headers) then has unread bytes in the gateway's kernel buffer, and the
 * kernel answers them with RST: the client's write fails (EPIPE, ECONNRESET) and a client that
 * reads the answer only once its body is sent, as fetch does, never sees it.
 *
 * Instead, once the answer is written, the socket leaves the HTTP parser (nothing after a refused
 * request is parsed, so no request can ride in behind it), gets its FIN, and every byte the
 * client goes on sending is read and dropped. The socket is destroyed when the client ends its
 * side (a clean close: nothing is left unread), when more than `maxBytes` arrive, or `ms` after
 * the answer, whichever comes first. A request whose body was read whole closes as Node closes it.
 */
export function lingeringClose(req: IncomingMessage, res: ServerResponse, limits: LingerLimits): void {
  res.setHeader('connection', 'close');
  const socket = req.socket;
  const destroySoon = socket.destroySoon;
  // Node calls this once the last response is written (resOnFinish in lib/_http_server.js).
  socket.destroySoon = () => {
    // Nothing more is coming: the body was read whole, or the client has closed its side.
    if (req.complete || socket.destroyed || socket.readableEnded) {
      destroySoon.call(socket);
      return;
    }
    const deadline = setTimeout(() => socket.destroy(), limits.ms);
    socket.once('close', () => clearTimeout(deadline));
    // The HTTP server's own listeners: its parser would read what follows as a next request,
    // and take the client's FIN mid-body for a parse error ('clientError'). (The other 'end'
    // listener, net's own, does nothing on the half-open sockets an HTTP server has.)
    socket.removeAllListeners('data');
    socket.removeAllListeners('end');
    let read = 0;
    // Adding a 'data' listener also takes the socket back from the parser, which otherwise reads
    // it directly (in C++); from here the bytes arrive only here.
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.maxBytes) socket.destroy();
    });
    socket.once('end', () => destroySoon.call(socket));
    if (socket.writable) socket.end();
    socket.resume();
    // The stream still counts the read it last asked for as in flight (the parser took its
    // bytes), so it would never ask again; ask the socket itself. A no-op if it is reading.
    socket._read(0);
  };
}
