import { createConnection, createServer } from 'node:net';

/** A free TCP port on the loopback interface (the kernel's choice; `npm start` retries on EADDRINUSE). */
function anyFreePort(): Promise<number> {
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

/** A port a variable names: an integer from 1 to 65535, else an error naming the variable. */
export function portOf(variable: string, value: string): number {
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port < 1 || port > 65535)
    throw new Error(`${variable} must be a port from 1 to 65535 (got '${value}')`);
  return port;
}

/**
 * The port a service started by `npm start` listens on: the one its variable names (`explicit`),
 * whatever happens then; else `preferred` when it is free on `host` and not `reserved` (ports
 * already promised to another process of the start), else any free one that is not reserved.
 */
export async function servicePort(
  variable: string,
  explicit: string | undefined,
  preferred: number,
  host: string,
  reserved: ReadonlySet<number>,
): Promise<number> {
  if (explicit !== undefined && explicit !== '') return portOf(variable, explicit);
  if (!reserved.has(preferred) && (await portFree(preferred, host))) return preferred;
  return freePortOutside(reserved);
}

/** A free loopback port that is not among `reserved`. */
export async function freePortOutside(reserved: ReadonlySet<number>): Promise<number> {
  for (;;) {
    const port = await anyFreePort();
    if (!reserved.has(port)) return port;
  }
}

/**
 * The port a service's fatal line says it could not listen on (`listen EADDRINUSE: address already
 * in use 127.0.0.1:9082`, the API's port or its admin port), if that is why it stopped.
 */
export function portInUse(output: string): number | undefined {
  const match = /EADDRINUSE: address already in use \S*:(\d+)\b/.exec(output);
  return match ? Number(match[1]) : undefined;
}
