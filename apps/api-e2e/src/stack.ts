import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { workerDatabaseUrl } from '@tcg/persistence/testing';

const ROOT = resolve(__dirname, '../../..');

export const INTERNAL_TOKEN = 'e2e-internal-credential-0123456789';

export interface Stack {
  readonly gatewayUrl: string;
  readonly v1Url: string;
  readonly v2Url: string;
  /** Each service's admin `/metrics` address, with `metrics: true`. */
  readonly metricsUrls: { readonly gateway: string; readonly v1: string; readonly v2: string };
  /** What each service wrote to stdout and stderr so far, with `logs: true` (else empty). */
  output(service: 'gateway' | 'v1' | 'v2'): string;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? done(addr.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * Three services start at once, each loading its modules (about 3 s of CPU on this 2-core machine
 * when idle); with other suites and jobs sharing the cores, the first one waited for has taken
 * more than 20 s. The deadline stays within Jest's 60 s for the hook that starts the stack.
 */
async function waitFor(url: string, child: ChildProcess, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: service exited with ${child.exitCode}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(3000) }); // any answer will do, even a 503
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

/**
 * Starts the built api-v1, api-v2 and gateway (`dist/`, made by `npm run build`, which `npm test`
 * runs first) as separate processes on free ports, exactly as `npm start` does, over real HTTP.
 * `v1Down` points the gateway at a port where nothing listens; `v1Url` at another upstream (an
 * echo server, to see what the gateway sends); `redis` gives the gateway REDIS_URL when set.
 */
export async function startStack(
  opts: {
    v1Down?: boolean;
    v1Url?: string;
    redis?: boolean;
    gatewayEnv?: Record<string, string>;
    v2Env?: Record<string, string>;
    /** Another database than this worker's (a server the test owns). */
    databaseUrl?: string;
    /** Variables for all three services. */
    env?: Record<string, string>;
    /** Serve `/metrics` on free admin ports (else none: METRICS_PORT=0). */
    metrics?: boolean;
    /** Keep the services' stdout and stderr (their logs) for `output`; stderr is still shown. */
    logs?: boolean;
  } = {},
): Promise<Stack> {
  const databaseUrl = opts.databaseUrl ?? workerDatabaseUrl();
  const main = (app: string) => join(ROOT, 'dist/apps', app, 'src/main.js');
  if (!existsSync(main('api-gateway'))) throw new Error('dist/ is missing: run `npm run build` first');

  const [v1Port, v2Port, gwPort, deadPort, ...adminPorts] = await Promise.all(
    Array.from({ length: opts.metrics ? 7 : 4 }, () => freePort()),
  );
  const metricsPort = { v1: adminPorts[0] ?? 0, v2: adminPorts[1] ?? 0, gateway: adminPorts[2] ?? 0 };
  const children: ChildProcess[] = [];
  const outputs = { gateway: '', v1: '', v2: '' };
  const run = (app: string, env: Record<string, string>, name: keyof typeof outputs) => {
    const child = spawn(process.execPath, [main(app)], {
      env: {
        PATH: process.env['PATH'] ?? '',
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: '4',
        INTERNAL_TOKEN,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        METRICS_PORT: String(metricsPort[name]),
        // Bulk snapshots are written only where a suite asks for them (v1-bulk).
        BULK_GENERATION: 'off',
        ...opts.env,
        ...env,
      },
      stdio: ['ignore', opts.logs ? 'pipe' : 'ignore', opts.logs ? 'pipe' : 'inherit'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (outputs[name] += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => {
      outputs[name] += chunk.toString();
      process.stderr.write(chunk);
    });
    children.push(child);
    return child;
  };
  const v1Url = `http://127.0.0.1:${v1Port}`;
  const v2Url = `http://127.0.0.1:${v2Port}`;
  const gatewayUrl = `http://127.0.0.1:${gwPort}`;
  const v1 = opts.v1Down || opts.v1Url ? undefined : run('api-v1', { PORT: String(v1Port) }, 'v1');
  const v2 = run('api-v2', { PORT: String(v2Port), ...opts.v2Env }, 'v2');
  const gw = run(
    'api-gateway',
    {
      PORT: String(gwPort),
      HOST: '127.0.0.1',
      API_V1_URL: opts.v1Down ? `http://127.0.0.1:${deadPort}` : (opts.v1Url ?? v1Url),
      API_V2_URL: v2Url,
      UPSTREAM_TIMEOUT_MS: '2000',
      KEY_CACHE_TTL_MS: '300',
      ...(opts.redis && process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
      ...opts.gatewayEnv,
    },
    'gateway',
  );
  const close = async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve())),
    );
  };
  try {
    if (v1) await waitFor(`${v1Url}/health`, v1);
    await waitFor(`${v2Url}/health`, v2);
    await waitFor(`${gatewayUrl}/health`, gw);
  } catch (error) {
    await close();
    throw error;
  }
  const admin = (port: number) => `http://127.0.0.1:${port}/metrics`;
  return {
    gatewayUrl,
    v1Url,
    v2Url,
    metricsUrls: {
      gateway: admin(metricsPort.gateway),
      v1: admin(metricsPort.v1),
      v2: admin(metricsPort.v2),
    },
    output: (service) => outputs[service],
    close,
  };
}
