import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A webhook receiver on 127.0.0.1, for the alert sender's tests and bench: reads each request to
 * its end and hands it to `record`, then answers 204 at once, or never where `hangs` says so (a
 * tarpit). `close` drops the requests left unanswered and every connection, then the server.
 */
export async function startWebhookReceiver(
  record: (req: IncomingMessage) => void,
  hangs: (req: IncomingMessage) => boolean,
): Promise<{ port: number; close(): Promise<void> }> {
  const hung: ServerResponse[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      record(req);
      if (hangs(req)) hung.push(res);
      else res.writeHead(204).end();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: async () => {
      hung.forEach((res) => res.destroy());
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => server.close(r));
    },
  };
}
