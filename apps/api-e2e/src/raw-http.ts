import { connect, Socket } from 'node:net';

/**
 * HTTP/1.1 on a bare socket, for what fetch() will not send: unnormalised paths, absolute-form
 * targets, bodies on GET, conflicting framing, headers dribbled a byte at a time.
 */

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface RawExchange {
  /** Every response that came back on the connection, in order. */
  readonly responses: RawResponse[];
  /** Whether the server closed the connection (as opposed to the idle wait running out). */
  readonly closedByServer: boolean;
}

/**
 * Writes `payload` on a fresh connection and collects what comes back until the server closes the
 * connection or nothing arrives for `idleMs`. Targets only 127.0.0.1.
 */
export function exchange(port: number, payload: string | Buffer, idleMs = 1_500): Promise<RawExchange> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    let finished = false;
    const finish = (closedByServer: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(idle);
      socket.destroy();
      try {
        done({ responses: parseResponses(Buffer.concat(chunks)), closedByServer });
      } catch (error) {
        fail(error as Error);
      }
    };
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => finish(false), idleMs);
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      armIdle();
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      socket.write(payload);
      armIdle();
    });
  });
}

/** A request in wire form; `Host` is added, the rest is exactly what the test gives. */
export function wire(requestLine: string, headers: Record<string, string> = {}, body = ''): string {
  const lines = [requestLine, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Opens a connection and sends `head` one byte per `everyMs`, never finishing the headers. */
export function dribble(
  port: number,
  head: string,
  everyMs: number,
): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let sent = 0;
  let received = '';
  const timer = setInterval(() => {
    if (sent < head.length) socket.write(head[sent++]!);
  }, everyMs);
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  const closed = new Promise<string>((r) => {
    socket.on('close', () => {
      clearInterval(timer);
      r(received);
    });
  });
  socket.on('error', () => socket.destroy());
  return { socket, closed };
}

/** Splits a byte stream into HTTP/1.1 responses (Content-Length or chunked bodies). */
export function parseResponses(buf: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < buf.length) {
    const headEnd = buf.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const [statusLine, ...lines] = buf.toString('latin1', at, headEnd).split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
    if (!Number.isInteger(status)) throw new Error(`not an HTTP response: ${statusLine}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    at = headEnd + 4;
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const sizeEnd = buf.indexOf('\r\n', at);
        if (sizeEnd === -1) break;
        const size = parseInt(buf.toString('latin1', at, sizeEnd), 16);
        at = sizeEnd + 2;
        if (!(size > 0)) {
          at += 2; // the empty trailer section
          break;
        }
        parts.push(buf.subarray(at, at + size));
        at += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = buf.subarray(at, at + length);
      at += length;
    }
    responses.push({ status, headers, body: body.toString('utf8') });
  }
  return responses;
}
