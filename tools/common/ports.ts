import { createConnection, createServer } from 'node:net';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether something accepts connections on the loopback port (a port that hangs is closed after 2 s). */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(2000, () => {
      socket.destroy();
      done(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Whether a server could listen on `host`:`port` now. */
export function portFree(port: number, host: string): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, host, () => srv.close(() => done(true)));
  });
}

/**
 * The port a service started by `npm start` listens on: the one its variable names (`explicit`),
 * whatever happens then; else `preferred` when it is free on `host`, else any free one.
 */
export async function servicePort(
  explicit: string | undefined,
  preferred: number,
  host: string,
): Promise<number> {
  if (explicit !== undefined && explicit !== '') return Number(explicit);
  return (await portFree(preferred, host)) ? preferred : freePort();
}
