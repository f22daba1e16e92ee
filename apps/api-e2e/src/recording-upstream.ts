import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A stand-in service that records every request it parses (so a smuggled one shows up as an extra
 * entry) and answers 200 with what it saw: `{ url, usage }`, so a client can tell whether the answer
 * is its own. Paths ending in `/hang` are never answered; `/reset` drops the connection.
 */
export async function startRecordingUpstream(): Promise<{
  url: string;
  received: Received[];
  /** Requests whose connection closed before they were answered (a hang the gateway gave up on). */
  abandoned(): number;
  /** Hung requests whose connection is still open. */
  hanging(): number;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  let abandoned = 0;
  let hanging = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '';
      received.push({
        method: req.method ?? '',
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (url.endsWith('/hang')) {
        hanging += 1;
        res.on('close', () => {
          hanging -= 1;
          abandoned += res.writableFinished ? 0 : 1;
        });
        return;
      }
      // A small answer (the gateway holds it until whole) or a large one (streamed), cut mid-body.
      if (url.endsWith('/cut') || url.endsWith('/cut-large')) {
        const length = url.endsWith('/cut') ? '100' : '200000';
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
        res.write('{"partial":');
        setTimeout(() => req.socket.destroy(), 50);
        return;
      }
      if (url.endsWith('/reset')) {
        req.socket.destroy();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-tcg-leak', 'internal');
      res.end(JSON.stringify({ url, usage: req.headers['x-tcg-usage'] ?? null }));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    abandoned: () => abandoned,
    hanging: () => hanging,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
