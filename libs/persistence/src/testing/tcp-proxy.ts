import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to a server (PostgreSQL, Redis) that a test can cut (every connection dropped: the
 * server is gone), hold (`pause`: it is there but answers nothing) and restore on the same port,
 * without touching the server itself.
 */
export class TcpProxy {
  port = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly held: (() => void)[] = [];
  private paused = false;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on `port` (a free one the first time, the same one after a cut). */
  async start(): Promise<void> {
    const server = createServer((downstream) => {
      const upstream = connect(this.targetPort, this.targetHost);
      const relay = (from: Socket, to: Socket): void => {
        from.on('data', (chunk: Buffer) => {
          if (this.paused) this.held.push(() => to.write(chunk));
          else to.write(chunk);
        });
        from.on('close', () => to.destroy());
        from.on('error', () => to.destroy());
      };
      relay(downstream, upstream);
      relay(upstream, downstream);
      for (const s of [downstream, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.held.length = 0;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const write of this.held.splice(0)) write();
  }
}

/**
 * A started relay to the server a URL names (PostgreSQL or Redis; `defaultPort` when the URL has
 * none), and that URL through it: same credentials, database and options, the relay's address.
 */
export async function relayTo(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = new TcpProxy(target.hostname, Number(target.port || defaultPort));
  await proxy.start();
  target.hostname = '127.0.0.1';
  target.port = String(proxy.port);
  return { proxy, url: target.toString() };
}
