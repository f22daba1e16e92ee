import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the server saw it. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** `performance.now()` when its head arrived. */
  readonly at: number;
}

/** What to do with the n-th request (0-based): answer it, or break it. */
export type Reply =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: unknown;
      /** Sent as is instead of `body` as JSON. */
      readonly text?: string;
      /** Waits this long before the head. */
      readonly delayMs?: number;
      /** Sends the head and part of the body, then never the rest. */
      readonly stall?: boolean;
    }
  | { readonly destroy: true };

export interface TestServer {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that answers each request with what `reply` says. */
export async function startServer(reply: (n: number, seen: Seen) => Reply): Promise<TestServer> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = performance.now();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const request: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at };
      seen.push(request);
      const what = reply(seen.length - 1, request);
      if ('destroy' in what) return void req.socket.destroy();
      const send = () => {
        const text = what.text ?? (what.body === undefined ? '' : JSON.stringify(what.body));
        const type =
          what.text === undefined && what.body !== undefined ? { 'content-type': 'application/json' } : {};
        res.writeHead(what.status, { ...type, ...what.headers });
        if (what.stall) return void res.write(text.slice(0, 1) || ' ');
        res.end(text);
      };
      if (!what.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, what.delayMs);
      timers.add(timer);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      timers.forEach(clearTimeout);
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers,
});
