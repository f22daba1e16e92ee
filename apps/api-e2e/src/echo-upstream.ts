import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stand-in upstream that records what the gateway sent it and answers 200 `{"ok":true}` (after `delayMs`). */
export async function startEchoUpstream(opts: { delayMs?: number } = {}): Promise<{
  url: string;
  received: IncomingHttpHeaders[];
  close(): Promise<void>;
}> {
  const received: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    const answer = () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    };
    if (opts.delayMs) setTimeout(answer, opts.delayMs).unref();
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
