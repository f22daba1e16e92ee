import { createServer } from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768–60999 by default), from 20000 on, in blocks
 * of BLOCK per process: the test runner's own process (no JEST_WORKER_ID) takes the first, Jest
 * worker n the (n+1)th.
 */
const FIRST = 20_000;
const BLOCK = 500;
const BLOCKS = 25;
let drawn = 0;

/**
 * A loopback port free now, for a server a test or bench starts later (often in a child process,
 * seconds later). A port from `listen(0)` lies in the ephemeral range, where the kernel may give
 * it to an outgoing connection (to PostgreSQL, Redis, a service) in between, and the server's
 * listen then fails with EADDRINUSE; two Jest workers drawing at once could also be handed the
 * same one. Here each process draws in turn from a block of its own, outside that range, skipping
 * ports something listens on.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env['JEST_WORKER_ID'] ?? 0);
  const base = FIRST + (Number.isInteger(worker) ? worker % BLOCKS : 0) * BLOCK;
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = base + (drawn++ % BLOCK);
    if (await listenable(port)) return port;
  }
  throw new Error(`no free port in ${base}-${base + BLOCK - 1}`);
}

function listenable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}
