import { refreshSummariesIfStale } from '@tcg/persistence';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { openDatabase, resolveDatabase } from '../common/database';
import { REPO_ROOT } from '../common/files';
import { log } from '../common/log';
import { freePortOutside, portFree, portInUse, portOf, servicePort } from '../common/ports';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../common/service-runtime';
import { CATALOGUE_SIZES, CatalogueSize } from '../loader/catalogue';
import { currentHour, ensureSampleLoaded, loadProgressReporter } from '../loader/sample-loader';
import { ensureDemoKey } from './demo-key';

/**
 * `npm start`: PostgreSQL (DATABASE_URL, else embedded), migrations, the sample catalogue on first
 * start (again when that load was interrupted), stale summaries refreshed, the demo key, then
 * api-v1, api-v2, the gateway and the MCP server (`/mcp`) as child processes, and api-v1's worker (the bulk files and the
 * price alerts' webhooks, off the serving api-v1) as one more, at a lower CPU priority.
 */
async function main(): Promise<void> {
  const env = process.env;
  const size = (env['SAMPLE_SIZE'] ?? 'medium') as CatalogueSize;
  if (!(size in CATALOGUE_SIZES))
    throw new Error(`SAMPLE_SIZE must be small, medium or full (got '${size}')`);
  // The gateway's port is public (the banner and every example name it): taken, it is an error,
  // said before the first load rather than after.
  const gatewayPort = env['PORT'] ? portOf('PORT', env['PORT']) : 8080;
  // Loopback unless asked: the pages and the demo key are for this machine's browser only.
  const gatewayHost = hostOf(env['HOST']);
  const gatewayPortTaken = async () =>
    (await portFree(gatewayPort, gatewayHost))
      ? undefined
      : `port ${gatewayPort} is taken: stop what listens there, or set PORT to another port`;
  const taken = await gatewayPortTaken();
  if (taken) throw new Error(taken);
  const db = await resolveDatabase(env);
  // Until the services run, a Ctrl-C (or SIGTERM) gives the database back before exiting, so an
  // embedded server nobody else uses stops too; an interrupted first load is redone next start.
  const interrupted = () =>
    void db.stop().finally(() => {
      log('warn', 'start interrupted before the services started');
      process.exit(130);
    });
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const demo = await prepareDatabase(db.url, size, env).catch(async (error: unknown) => {
    await db.stop();
    throw error;
  });

  // Taken during the load: said the same way, the database given back.
  const takenSince = await gatewayPortTaken();
  if (takenSince) {
    await db.stop();
    throw new Error(takenSince);
  }

  // The services' ports are npm start's own business: a default that is taken, or promised to
  // another process of this start, is replaced by a free one. One given explicitly is kept (the
  // start then fails, naming it, if it is taken). They are chosen now, after the load, and a port
  // another process takes between this choice and the service's listen is replaced again then
  // (see `onExit`): a port is only held once its service listens on it.
  const reserved = new Set([gatewayPort]);
  for (const variable of ['API_V1_PORT', 'API_V2_PORT', 'MCP_PORT'])
    if (env[variable]) reserved.add(portOf(variable, env[variable]));
  const internalPort = async (service: string, variable: string, preferred: number): Promise<PortChoice> => {
    const port = await servicePort(variable, env[variable], preferred, SERVICE_HOST, reserved);
    reserved.add(port);
    if (port !== preferred && !env[variable])
      log('info', 'default port taken: using a free one', { service, taken: preferred, port });
    return { port, variable: env[variable] ? variable : undefined };
  };
  // Each process's /metrics admin port: its default, or a free one when taken; METRICS_PORT=0
  // turns them all off (one METRICS_PORT cannot serve four processes).
  const metricsPort = async (service: string, preferred: number): Promise<PortChoice> => {
    if (env['METRICS_PORT'] === '0') return { port: 0, variable: 'METRICS_PORT' };
    const port = await servicePort('METRICS_PORT', undefined, preferred, SERVICE_HOST, reserved);
    reserved.add(port);
    if (port !== preferred)
      log('info', 'default metrics port taken: using a free one', { service, taken: preferred, port });
    return { port, variable: undefined };
  };
  const v1 = {
    api: await internalPort('api-v1', 'API_V1_PORT', 8081),
    metrics: await metricsPort('api-v1', 9081),
  } satisfies ServicePorts;
  const v2 = {
    api: await internalPort('api-v2', 'API_V2_PORT', 8082),
    metrics: await metricsPort('api-v2', 9082),
  } satisfies ServicePorts;
  const gateway = {
    api: { port: gatewayPort, variable: 'PORT' },
    metrics: await metricsPort('api-gateway', 9080),
  } satisfies ServicePorts;
  // The MCP server's streamable HTTP service, which the gateway's /mcp forwards to; it has no
  // admin port (its tool calls are the gateway's requests, counted there).
  const mcp = {
    api: await internalPort('mcp-server', 'MCP_PORT', 8083),
    metrics: { port: 0, variable: 'METRICS_PORT' },
  } satisfies ServicePorts;
  // The worker serves no API: only its admin port (/metrics, and /health with its details).
  const worker: ServicePorts = { metrics: await metricsPort('api-v1-worker', 9083) };
  // The credential the services require from the gateway: fresh for every start unless given.
  const internalToken = env['INTERNAL_TOKEN'] ?? randomBytes(24).toString('base64url');
  // The services write to this terminal (their stdout is ours): readable lines on one, JSON otherwise.
  const logFormat = env['LOG_FORMAT'] ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const common = {
    ...env,
    DATABASE_URL: db.url,
    INTERNAL_TOKEN: internalToken,
    HOST: SERVICE_HOST,
    LOG_FORMAT: logFormat,
  };
  // Each service's environment is built when it is spawned, from its ports as they are then.
  const services: ServiceSpec[] = [
    {
      name: 'api-v1',
      script: 'apps/api-v1/src/main.js',
      ports: v1,
      env: () => ({
        ...common,
        PORT: String(v1.api.port),
        METRICS_PORT: String(v1.metrics.port),
        // Its batch work is the worker's (below): a bulk generation over a large catalogue takes
        // many minutes of CPU, which the serving process no longer shares with its requests.
        BULK_GENERATION: 'off',
        ALERT_SENDER: 'off',
      }),
    },
    {
      name: 'api-v2',
      script: 'apps/api-v2/src/main.js',
      ports: v2,
      env: () => ({ ...common, PORT: String(v2.api.port), METRICS_PORT: String(v2.metrics.port) }),
    },
    {
      name: 'api-gateway',
      script: 'apps/api-gateway/src/main.js',
      ports: gateway,
      env: () => ({
        ...common,
        PORT: String(gatewayPort),
        HOST: gatewayHost,
        METRICS_PORT: String(gateway.metrics.port),
        API_V1_URL: `http://127.0.0.1:${v1.api.port}`,
        API_V2_URL: `http://127.0.0.1:${v2.api.port}`,
        MCP_URL: `http://127.0.0.1:${mcp.api.port}`,
        // The explorer page at / starts with the demo key in its key field (and /docs authorised);
        // a revoked one is not offered.
        ...(demo.revoked ? {} : { EXPLORER_API_KEY: demo.key }),
      }),
    },
    {
      // Each tool call it makes is a request to the gateway, under the key its caller sent /mcp.
      name: 'mcp-server',
      script: 'apps/mcp-server/src/main.js',
      ports: mcp,
      env: () => ({
        ...common,
        MCP_TRANSPORT: 'http',
        PORT: String(mcp.api.port),
        TCG_API_URL: `http://${urlHost(gatewayHost)}:${gatewayPort}`,
      }),
    },
    {
      // api-v1's batch jobs, as BULK_GENERATION and ALERT_SENDER say (on unless set off here).
      name: 'api-v1-worker',
      script: 'apps/api-v1/src/worker.js',
      ports: worker,
      env: () => ({ ...common, METRICS_PORT: String(worker.metrics.port) }),
      niceness: WORKER_NICENESS,
    },
  ];
  log('info', 'starting the services', {
    ports: Object.fromEntries(
      services.map((s) => [s.name, { port: s.ports.api?.port ?? null, metricsPort: s.ports.metrics.port }]),
    ),
  });

  const children = new Map<string, ChildProcess>();
  let stopping = false;
  let up = false;
  let replaced = 0;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children.values()) child.kill('SIGTERM');
    await Promise.all(
      [...children.values()].map((c) =>
        c.exitCode === null && c.signalCode === null
          ? new Promise((r) => c.once('exit', r))
          : Promise.resolve(),
      ),
    );
    await db.stop();
    process.exit(code);
  };
  const run = (spec: ServiceSpec): void => {
    // stderr passes through (the services' errors and fatal lines), kept to read why one stopped.
    // The IPC channel carries nothing: it closes when this process ends, by `kill -9` too, and
    // the service then stops (`stopWithParent`) rather than keep its ports.
    const child = spawn(
      process.execPath,
      [...SERVICE_NODE_FLAGS, '--enable-source-maps', join(REPO_ROOT, 'dist', spec.script)],
      { env: { ...SERVICE_ENV, ...spec.env() }, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] },
    );
    if (spec.niceness !== undefined && child.pid !== undefined) lowerPriority(spec, child.pid);
    let tail = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      tail = (tail + chunk.toString()).slice(-8192);
    });
    child.once('exit', (code) => void onExit(spec, child, code, tail));
    children.set(spec.name, child);
  };
  /**
   * A service that stopped before the start was up because a port was taken under it: a port npm
   * start chose is replaced by another free one and the service started again (the gateway too
   * when it was a service's API port, which the gateway is given); a port given explicitly, or
   * too many replacements, stops everything with the port named. Any other exit stops everything.
   */
  const onExit = async (spec: ServiceSpec, child: ChildProcess, code: number | null, tail: string) => {
    if (stopping || children.get(spec.name) !== child) return;
    const taken = portInUse(tail);
    const choice = [spec.ports.api, spec.ports.metrics].find((c) => c && c.port !== 0 && c.port === taken);
    if (!up && choice && choice.variable === undefined && replaced < MAX_PORT_REPLACEMENTS) {
      replaced++;
      choice.port = await freePortOutside(reserved);
      reserved.add(choice.port);
      log('warn', 'port taken as the service started: using another', {
        service: spec.name,
        taken,
        port: choice.port,
      });
      run(spec);
      const gatewayChild = children.get('api-gateway');
      if (choice === spec.ports.api && spec.name !== 'api-gateway' && gatewayChild) {
        // Its replacement must wait for the old one's PORT to be given back.
        children.delete('api-gateway');
        gatewayChild.once('exit', () => {
          if (!stopping) run(services.find((s) => s.name === 'api-gateway')!);
        });
        gatewayChild.kill('SIGTERM');
      }
      return;
    }
    if (taken !== undefined && choice)
      log('error', 'port taken: stopping', {
        service: spec.name,
        port: taken,
        error:
          choice.variable === undefined
            ? `port ${taken} was taken as ${spec.name} started, and so were the ${MAX_PORT_REPLACEMENTS} free ports tried after it`
            : `port ${taken} (${choice.variable}) was taken as ${spec.name} started: stop what listens there, or set ${choice.variable} to another port`,
      });
    log('error', 'service exited; stopping', { service: spec.name, code });
    void stop(1);
  };
  process.removeListener('SIGINT', interrupted);
  process.removeListener('SIGTERM', interrupted);
  for (const spec of services) run(spec);
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  const base = `http://${urlHost(gatewayHost)}:${gatewayPort}`;
  await waitForHealth(`${base}/health`, 60_000);
  up = true;
  const key = demo.revoked ? '<your key>' : demo.key;
  process.stdout.write(
    [
      '',
      `  Trading-card pricing API is up at ${base}    (listening on ${gatewayHost}; HOST changes it)`,
      `  Price explorer: ${base}/`,
      `  API reference:  ${base}/docs`,
      ...(demo.revoked
        ? [
            `  Demo API key: revoked (it stays so). Create a key with:`,
            `    npm run keys -- create --plan ${demo.plan} --label mine`,
          ]
        : [`  Demo API key (${demo.plan} plan): ${demo.key}`]),
      '',
      `  curl ${base}/health`,
      `  curl -H 'x-api-key: ${key}' '${base}/v1/games'`,
      `  curl -H 'x-api-key: ${key}' '${base}/v1/cards?q=lightning%20bolt&limit=3'`,
      `  curl -H 'x-api-key: ${key}' '${base}/v2/cards?q=lightning%20bolt&regions=NA,EU&include=periods.30d'`,
      `  curl -H 'x-api-key: ${key}' '${base}/v1/bulk'    (whole-game files, about a minute after start)`,
      `  curl ${base}/llms.txt    (the API described for agents; MCP server at ${base}/mcp, see docs/agents.md)`,
      ...(gateway.metrics.port
        ? [
            `  curl http://127.0.0.1:${gateway.metrics.port}/metrics    (Prometheus; no key)`,
            `  curl http://127.0.0.1:${gateway.metrics.port}/health     (health details; no key)`,
          ]
        : []),
      '',
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

/** Where the services listen: only the gateway, on the same machine, calls them. */
const SERVICE_HOST = '127.0.0.1';

/** Ports taken under the services as they start that npm start replaces before giving up. */
const MAX_PORT_REPLACEMENTS = 5;

/** A port a service listens on, and the variable that named it (undefined: npm start chose it). */
interface PortChoice {
  port: number;
  readonly variable: string | undefined;
}

interface ServicePorts {
  /** Undefined: it serves no API (the worker). */
  readonly api?: PortChoice;
  /** 0: no admin port. */
  readonly metrics: PortChoice;
}

interface ServiceSpec {
  readonly name: string;
  readonly script: string;
  readonly ports: ServicePorts;
  env(): NodeJS.ProcessEnv;
  /** Set: the process runs at this niceness (a lower CPU priority than npm start's own). */
  readonly niceness?: number;
}

/**
 * The worker's niceness: on a machine whose cores are all busy, the kernel gives the services'
 * requests the CPU before a bulk generation, which only takes longer. 10, as `nice` does by default.
 */
const WORKER_NICENESS = 10;

/**
 * Lowers a process's CPU priority; where the system refuses (a platform without niceness, a
 * sandbox that forbids it), it runs at the normal priority, said in one warning, and the start goes on.
 */
function lowerPriority(spec: ServiceSpec, pid: number): void {
  try {
    setPriority(pid, spec.niceness!);
  } catch (error) {
    log('warn', 'could not lower the CPU priority: it runs at the normal one', {
      service: spec.name,
      niceness: spec.niceness,
      error: (error as Error).message,
    });
  }
}

/** HOST, the gateway's listening address: an IP address (127.0.0.1 when unset; 0.0.0.0 or :: for every interface). */
function hostOf(value: string | undefined): string {
  if (value === undefined || value === '') return '127.0.0.1';
  if (isIP(value) === 0)
    throw new Error(`HOST must be an IP address such as 127.0.0.1, 0.0.0.0 or :: (got '${value}')`);
  return value;
}

/** How the banner's URLs name the gateway: an address that listens everywhere is reached on loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** Migrations, the sample catalogue, fresh summaries and the demo key. */
async function prepareDatabase(
  url: string,
  size: CatalogueSize,
  env: NodeJS.ProcessEnv,
): Promise<{ key: string; plan: string; revoked: boolean }> {
  const ds = await openDatabase(url);
  try {
    const report = await ensureSampleLoaded(ds, size, {
      asOf: currentHour(),
      onProgress: loadProgressReporter(),
    });
    if (report) log('info', 'sample loaded', { ...report });
    // An import or load killed between its last commit and its refresh left the summaries stale.
    else if (await refreshSummariesIfStale(ds)) log('info', 'summaries were stale: refreshed');
    return await ensureDemoKey(ds, env);
  } finally {
    await ds.destroy();
  }
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`services did not become healthy within ${timeoutMs / 1000}s (${url})`);
}

main().catch((error: unknown) => {
  log('error', 'start failed', { error: (error as Error).message, stack: (error as Error).stack });
  process.exit(1);
});
