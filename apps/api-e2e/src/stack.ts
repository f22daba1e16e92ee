import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, workerDatabaseUrl } from '@tcg/persistence/testing';

export { freePort };

const ROOT = resolve(__dirname, '../../..');

export const INTERNAL_TOKEN = 'e2e-internal-credential-0123456789';

export interface Stack {
  readonly gatewayUrl: string;
  readonly v1Url: string;
  readonly v2Url: string;
  /** Each service's admin `/metrics` address, with `metrics: true`. */
  readonly metricsUrls: { readonly gateway: string; readonly v1: string; readonly v2: string };
  /** Each service's admin `/health` (the details the open `/health` leaves out), with `metrics: true`. */
  readonly healthUrls: { readonly gateway: string; readonly v1: string; readonly v2: string };
  /** What each service wrote to stdout and stderr so far, with `logs: true` (else empty). */
  output(service: 'gateway' | 'v1' | 'v2'): string;
  close(): Promise<void>;
}

/**
 * Three services start at once, each loading its modules (about 3 s of CPU on this 2-core machine
 * when idle); with other suites and jobs sharing the cores, the first one waited for has taken
 * more than 20 s. The deadline stays within Jest's 60 s for the hook that starts the stack
 * (`startScaledStack`, with twice as many processes, passes a longer one).
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

const mainOf = (app: string, entry = 'main'): string => join(ROOT, 'dist/apps', app, `src/${entry}.js`);

/**
 * Spawns built services as processes sharing one database, the internal token and the quiet
 * defaults below, and keeps what they print (with `logs`) under the name each was given.
 */
function launcher(opts: { databaseUrl: string; env?: Record<string, string>; logs?: boolean }) {
  if (!existsSync(mainOf('api-gateway'))) throw new Error('dist/ is missing: run `npm run build` first');
  const children: ChildProcess[] = [];
  const outputs = new Map<string, string>();
  const run = (app: string, name: string, env: Record<string, string>, entry = 'main'): ChildProcess => {
    outputs.set(name, '');
    const child = spawn(process.execPath, [mainOf(app, entry)], {
      env: {
        PATH: process.env['PATH'] ?? '',
        DATABASE_URL: opts.databaseUrl,
        DATABASE_POOL_SIZE: '4',
        INTERNAL_TOKEN,
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        METRICS_PORT: '0',
        // Bulk snapshots are written only where a suite asks for them (v1-bulk).
        BULK_GENERATION: 'off',
        // Alerts are evaluated and sent only where a suite asks for it (v1-alerts).
        ALERT_SENDER: 'off',
        ...opts.env,
        ...env,
      },
      stdio: ['ignore', opts.logs ? 'pipe' : 'ignore', opts.logs ? 'pipe' : 'inherit'],
    });
    child.stdout?.on('data', (chunk: Buffer) => outputs.set(name, outputs.get(name) + chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => {
      outputs.set(name, outputs.get(name) + chunk.toString());
      process.stderr.write(chunk);
    });
    children.push(child);
    return child;
  };
  const close = async (): Promise<void> => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve())),
    );
  };
  return { run, close, output: (name: string): string => outputs.get(name) ?? '' };
}

/** What a test may set on the services it starts (one stack or a scaled-out one). */
export interface StackOptions {
  v1Url?: string;
  redis?: boolean;
  /** Variables for the gateway (every gateway of a scaled stack). */
  gatewayEnv?: Record<string, string>;
  v1Env?: Record<string, string>;
  v2Env?: Record<string, string>;
  /** Another database than this worker's (a server the test owns). */
  databaseUrl?: string;
  /** Variables for all the services. */
  env?: Record<string, string>;
  /** Serve `/metrics` on free admin ports (else none: METRICS_PORT=0). */
  metrics?: boolean;
  /** Keep the services' stdout and stderr (their logs) for `output`; stderr is still shown. */
  logs?: boolean;
  /** Start the MCP server's HTTP service too, behind the gateway's `/mcp` (as `npm start` does). */
  mcp?: boolean;
}

/**
 * Starts the built api-v1, api-v2 and gateway (`dist/`, made by `npm run build`, which `npm test`
 * runs first) as separate processes on free ports, exactly as `npm start` does, over real HTTP.
 * `v1Down` points the gateway at a port where nothing listens; `v1Url` at another upstream (an
 * echo server, to see what the gateway sends); `redis` gives the gateway REDIS_URL when set.
 */
export async function startStack(opts: StackOptions & { v1Down?: boolean } = {}): Promise<Stack> {
  const [v1Port, v2Port, gwPort, deadPort, mcpPort, ...adminPorts] = await Promise.all(
    Array.from({ length: opts.metrics ? 8 : 5 }, () => freePort()),
  );
  const metricsPort = { v1: adminPorts[0] ?? 0, v2: adminPorts[1] ?? 0, gateway: adminPorts[2] ?? 0 };
  const services = launcher({
    databaseUrl: opts.databaseUrl ?? workerDatabaseUrl(),
    env: opts.env,
    logs: opts.logs,
  });
  const run = (app: string, env: Record<string, string>, name: 'gateway' | 'v1' | 'v2') =>
    services.run(app, name, { METRICS_PORT: String(metricsPort[name]), ...env });
  const v1Url = `http://127.0.0.1:${v1Port}`;
  const v2Url = `http://127.0.0.1:${v2Port}`;
  const gatewayUrl = `http://127.0.0.1:${gwPort}`;
  const v1 =
    opts.v1Down || opts.v1Url ? undefined : run('api-v1', { PORT: String(v1Port), ...opts.v1Env }, 'v1');
  const v2 = run('api-v2', { PORT: String(v2Port), ...opts.v2Env }, 'v2');
  const mcpUrl = `http://127.0.0.1:${mcpPort}`;
  const mcp = opts.mcp
    ? services.run('mcp-server', 'mcp', {
        MCP_TRANSPORT: 'http',
        PORT: String(mcpPort),
        TCG_API_URL: gatewayUrl,
      })
    : undefined;
  const gw = run(
    'api-gateway',
    {
      PORT: String(gwPort),
      HOST: '127.0.0.1',
      API_V1_URL: opts.v1Down ? `http://127.0.0.1:${deadPort}` : (opts.v1Url ?? v1Url),
      API_V2_URL: v2Url,
      UPSTREAM_TIMEOUT_MS: '2000',
      KEY_CACHE_TTL_MS: '300',
      ...(opts.mcp ? { MCP_URL: mcpUrl } : {}),
      ...(opts.redis && process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
      ...opts.gatewayEnv,
    },
    'gateway',
  );
  const close = services.close;
  try {
    if (v1) await waitFor(`${v1Url}/health`, v1);
    await waitFor(`${v2Url}/health`, v2);
    if (mcp) await waitFor(`${mcpUrl}/health`, mcp);
    await waitFor(`${gatewayUrl}/health`, gw);
  } catch (error) {
    await close();
    throw error;
  }
  const admin = (path: string) => ({
    gateway: adminUrl(metricsPort.gateway, path),
    v1: adminUrl(metricsPort.v1, path),
    v2: adminUrl(metricsPort.v2, path),
  });
  return {
    gatewayUrl,
    v1Url,
    v2Url,
    metricsUrls: admin('/metrics'),
    healthUrls: admin('/health'),
    output: (service) => services.output(service),
    close,
  };
}

/** One gateway of a `ScaledStack`, and the service instances it forwards to. */
export interface ScaledGateway {
  readonly url: string;
  readonly v1Url: string;
  readonly v2Url: string;
  /** Its admin `/metrics` and `/health` addresses, with `metrics: true`. */
  readonly metricsUrl: string;
  readonly healthUrl: string;
}

export interface ScaledStack {
  readonly gateways: readonly ScaledGateway[];
  /** The api-v1 and api-v2 instances started (none for a version given by `v1Url` / `v2Url`). */
  readonly v1Urls: readonly string[];
  readonly v2Urls: readonly string[];
  /** The admin `/health` of each service instance, by its URL, with `metrics: true`. */
  healthUrlOf(serviceUrl: string): string;
  /** What a process printed, with `logs: true`: `gateway-0`, `v1-1`, `v2-0`, … */
  output(name: string): string;
  close(): Promise<void>;
}

/**
 * Several gateways and several instances of each service, as a deployment scales them out: all on
 * this worker's database (or `databaseUrl`), with the same INTERNAL_TOKEN and CURSOR_SECRET, and
 * the gateways on the same Redis when `redis` is set (REDIS_URL) or `gatewayEnv` names one.
 *
 * Gateway i forwards to instance i (modulo `instances`) of each version. In Kubernetes each
 * version is a Service that balances over its pods and the gateway takes one URL per version
 * (API_V1_URL, API_V2_URL); a fixed pairing stands in for that balancer and lets a test choose the
 * instance that answers, by choosing the gateway. `v1Url` / `v2Url` put a stand-in upstream behind
 * every gateway instead of starting that version.
 */
export async function startScaledStack(
  opts: {
    gateways?: number;
    /** Instances of each service; default one per gateway. */
    instances?: number;
    v2Url?: string;
    /** Variables for gateway i (`gatewayEnvs[i]`), after `gatewayEnv`. */
    gatewayEnvs?: readonly Record<string, string>[];
  } & StackOptions = {},
): Promise<ScaledStack> {
  const gateways = opts.gateways ?? 2;
  const instances = opts.instances ?? gateways;
  const ports = () => Promise.all(Array.from({ length: gateways }, () => freePort()));
  const ofEach = () => Promise.all(Array.from({ length: instances }, () => freePort()));
  const [gwPorts, adminPorts, v1Ports, v2Ports, v1AdminPorts, v2AdminPorts] = await Promise.all([
    ports(),
    opts.metrics ? ports() : Promise.resolve([]),
    opts.v1Url ? Promise.resolve([]) : ofEach(),
    opts.v2Url ? Promise.resolve([]) : ofEach(),
    opts.metrics && !opts.v1Url ? ofEach() : Promise.resolve([]),
    opts.metrics && !opts.v2Url ? ofEach() : Promise.resolve([]),
  ]);
  const healthUrls = new Map<string, string>();
  const services = launcher({
    databaseUrl: opts.databaseUrl ?? workerDatabaseUrl(),
    // What every api-v2 instance must share for a cursor sealed by one to open on another.
    env: { CURSOR_SECRET: `${INTERNAL_TOKEN}-cursors`, ...opts.env },
    logs: opts.logs,
  });
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const started: [string, ChildProcess][] = [];
  const instance = (version: 'v1' | 'v2', port: number, i: number, adminPort = 0) => {
    started.push([
      `${url(port)}/health`,
      services.run(`api-${version}`, `${version}-${i}`, {
        PORT: String(port),
        METRICS_PORT: String(adminPort),
        ...(version === 'v1' ? opts.v1Env : opts.v2Env),
      }),
    ]);
    healthUrls.set(url(port), adminUrl(adminPort, '/health'));
    return url(port);
  };
  const v1Urls = v1Ports.map((port, i) => instance('v1', port, i, v1AdminPorts[i]));
  const v2Urls = v2Ports.map((port, i) => instance('v2', port, i, v2AdminPorts[i]));
  const gatewayList = gwPorts.map((port, i): ScaledGateway => {
    const gateway = {
      url: url(port),
      v1Url: opts.v1Url ?? v1Urls[i % instances]!,
      v2Url: opts.v2Url ?? v2Urls[i % instances]!,
      metricsUrl: adminUrl(adminPorts[i] ?? 0, '/metrics'),
      healthUrl: adminUrl(adminPorts[i] ?? 0, '/health'),
    };
    const child = services.run('api-gateway', `gateway-${i}`, {
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(adminPorts[i] ?? 0),
      API_V1_URL: gateway.v1Url,
      API_V2_URL: gateway.v2Url,
      UPSTREAM_TIMEOUT_MS: '2000',
      KEY_CACHE_TTL_MS: '300',
      ...(opts.redis && process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
      ...opts.gatewayEnv,
      ...opts.gatewayEnvs?.[i],
    });
    started.push([`${gateway.url}/health`, child]);
    return gateway;
  });
  try {
    // Twice the processes of `startStack` on the same two cores: twice its deadline.
    await Promise.all(started.map(([health, child]) => waitFor(health, child, 80_000)));
  } catch (error) {
    await services.close();
    throw error;
  }
  return {
    gateways: gatewayList,
    v1Urls,
    v2Urls,
    healthUrlOf: (serviceUrl) => healthUrls.get(serviceUrl) ?? adminUrl(0, '/health'),
    output: services.output,
    close: services.close,
  };
}

/** A path on a process's admin port (`/metrics`, `/health`): port 0 when it serves none. */
const adminUrl = (port: number, path: string): string => `http://127.0.0.1:${port}${path}`;

/** A process a test starts, stops and kills itself (a sender killed mid-send, a restart). */
interface OwnProcess {
  output(): string;
  /** SIGTERM (a clean stop) or SIGKILL (`kill -9`); resolves with its exit code (or signal) once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/** One more api-v1 serving the API. */
export interface ServiceProcess extends OwnProcess {
  readonly url: string;
}

/**
 * Starts one built api-v1 process on its own (`entry`: `main`, the API, or `worker`, the batch
 * jobs) with `env`; resolves once `healthUrl` answers.
 */
async function startOwnApiV1(
  entry: 'main' | 'worker',
  env: Record<string, string>,
  healthUrl: string,
  databaseUrl: string,
): Promise<OwnProcess> {
  const name = entry === 'main' ? 'v1' : 'worker';
  const services = launcher({ databaseUrl, logs: true });
  const child = services.run('api-v1', name, env, entry);
  const exited = new Promise<number | string | null>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal)),
  );
  try {
    await waitFor(healthUrl, child);
  } catch (error) {
    await services.close();
    throw error;
  }
  return {
    output: () => services.output(name),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Starts one more built api-v1 on a free port, on this worker's database unless told otherwise. */
export async function startApiV1(
  env: Record<string, string>,
  databaseUrl = workerDatabaseUrl(),
): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    ...(await startOwnApiV1('main', { PORT: String(port), ...env }, `${url}/health`, databaseUrl)),
  };
}

/** A started api-v1 worker (`dist/apps/api-v1/src/worker.js`): no API port, its admin port's addresses. */
export interface WorkerProcess extends OwnProcess {
  readonly metricsUrl: string;
  readonly healthUrl: string;
}

/**
 * Starts the built api-v1 worker (the batch jobs, no API port) on this worker's database unless
 * told otherwise, with an admin port of its own; resolves once that port answers `/health`.
 */
export async function startWorker(
  env: Record<string, string>,
  databaseUrl = workerDatabaseUrl(),
): Promise<WorkerProcess> {
  const metricsPort = await freePort();
  const healthUrl = adminUrl(metricsPort, '/health');
  const worker = await startOwnApiV1(
    'worker',
    { METRICS_PORT: String(metricsPort), ...env },
    healthUrl,
    databaseUrl,
  );
  return { metricsUrl: adminUrl(metricsPort, '/metrics'), healthUrl, ...worker };
}
