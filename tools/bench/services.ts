import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import type { DataSource } from 'typeorm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../common/files';
import { freePort } from '@tcg/persistence/testing';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '../common/service-runtime';
import { log } from '../common/log';

export interface RunningService {
  readonly name: string;
  readonly url: string;
  /** Its health details on its admin port (the open `/health` says only up or degraded). */
  readonly healthUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Where the services are started from: this checkout's build, or BENCH_APPS_DIST (another
 * checkout's `dist/apps`, built there), to measure another commit's services with this bench,
 * its floors and its load generator, on the same catalogue: an A/B run, or a step of a bisection.
 */
const APPS_DIST = process.env['BENCH_APPS_DIST'] || join(REPO_ROOT, 'dist/apps');

/**
 * The keys CLI of the checkout whose services run, when that is another checkout: its gateway
 * knows its own key format (keys carry a check since issue 37, and a gateway from before refuses
 * them), so its keys are made with its own code.
 */
export const OTHER_KEYS_CLI: string | undefined = process.env['BENCH_APPS_DIST']
  ? join(process.env['BENCH_APPS_DIST'], '..', 'tools/keys/keys.js')
  : undefined;

/** The address every started process listens on (also what vgdb needs to find a valgrind's pipes). */
export const SERVICE_HOST = '127.0.0.1';

/**
 * `count` enterprise keys labelled `label` on the catalogue of `ds` (at `url`): made by this
 * checkout's repository, or, when the services are another checkout's, by its keys CLI.
 */
export function makeBenchKeys(ds: DataSource, url: string, label: string, count: number): Promise<string[]> {
  if (OTHER_KEYS_CLI) return keysFromCli(OTHER_KEYS_CLI, url, label, count);
  const repo = new TypeOrmApiKeyRepository(ds);
  return Promise.all(
    Array.from({ length: count }, () => repo.create('enterprise', label).then((k) => k.key)),
  );
}

/** Revokes the keys `makeBenchKeys` made under `label`. */
export async function revokeBenchKeys(ds: DataSource, label: string): Promise<void> {
  await ds.query('UPDATE api_keys SET revoked_at = now() WHERE label = $1 AND revoked_at IS NULL', [label]);
}

/**
 * `count` enterprise keys made by another checkout's keys CLI (`create --plan enterprise`), four at a
 * time, each printing its key on stdout.
 */
async function keysFromCli(cli: string, url: string, label: string, count: number): Promise<string[]> {
  log('info', "making the bench keys with the other checkout's keys CLI", { cli, keys: count });
  const keys: string[] = [];
  const one = () =>
    new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [cli, 'create', '--plan', 'enterprise', '--label', label],
        { env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: url, LOG_LEVEL: 'warn' }, timeout: 60_000 },
        (error, stdout) => {
          const key = stdout.trim().split('\n').pop() ?? '';
          if (error || key === '') reject(error ?? new Error(`${cli} printed no key`));
          else resolve(key);
        },
      ),
    );
  while (keys.length < count) keys.push(...(await Promise.all(Array.from({ length: 4 }, one))));
  return keys.slice(0, count);
}

/**
 * Starts a built service (`<APPS_DIST>/<app>/src/main.js`) on a free port and waits for /health.
 * With BENCH_CPU_PROF=<dir> each service writes a V8 CPU profile there when it stops.
 */
export function startService(
  app: string,
  env: Record<string, string>,
  launch: Launch = {},
): Promise<RunningService> {
  return startProcess(app, join(APPS_DIST, app, 'src/main.js'), [], env, '/health', launch);
}

/** How a process is started beyond its script: under a wrapper (valgrind), and how long it may take to be ready. */
export interface Launch {
  /** A command Node runs under, `['valgrind', '--tool=callgrind', …]`. */
  readonly wrapper?: readonly string[];
  /** Node flags beside the services' own. */
  readonly nodeFlags?: readonly string[];
  readonly readyTimeoutMs?: number;
}

/**
 * Starts `node <script> <args>` with PORT and HOST set to a free loopback port and waits until
 * `readyPath` answers below 500. Its stdout is dropped and its stderr is passed through.
 */
export async function startProcess(
  name: string,
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  readyPath: string,
  launch: Launch = {},
): Promise<RunningService> {
  const port = await freePort();
  const adminPort = await freePort();
  const profileDir = process.env['BENCH_CPU_PROF'];
  const flags = [
    ...SERVICE_NODE_FLAGS,
    ...(profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
      : []),
    // For instance `--perf-basic-prof`, so that `perf record -a` names the services' JavaScript,
    // or `--trace-gc` with BENCH_STDOUT=1 (the processes' stdout is dropped otherwise).
    ...(process.env['BENCH_NODE_FLAGS'] ?? '').split(' ').filter((f) => f !== ''),
    ...(launch.nodeFlags ?? []),
  ];
  const [command, ...wrapperArgs] = [...(launch.wrapper ?? []), process.execPath];
  const child: ChildProcess = spawn(command!, [...wrapperArgs, ...flags, script, ...args], {
    env: {
      PATH: process.env['PATH'] ?? '',
      // `log` writes an access line per request in every process (BENCH_LOG_LEVEL=log measures them).
      LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'warn',
      // A free admin port (for the health details): a benchmark's services must not collide with
      // an `npm start` of the same machine, whose admin ports are 9080-9082.
      METRICS_PORT: String(adminPort),
      // Bulk snapshots of the catalogue are background work of their own, not what a row measures.
      BULK_GENERATION: 'off',
      ...SERVICE_ENV,
      // Settings an A/B run changes on every service, `NAME=value` separated by spaces: for
      // instance RESPONSE_CACHE_MAX_BYTES=0 to measure without the response cache.
      ...Object.fromEntries(
        (process.env['BENCH_SERVICE_ENV'] ?? '')
          .split(' ')
          .filter((kv) => kv.includes('='))
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      ),
      ...env,
      PORT: String(port),
      HOST: SERVICE_HOST,
    },
    stdio: ['ignore', process.env['BENCH_STDOUT'] ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + (launch.readyTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}${readyPath}`);
      await res.arrayBuffer();
      if (res.status < 500) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not start`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, url, healthUrl: `http://127.0.0.1:${adminPort}/health`, pid: child.pid!, stop };
}

/** A process's resident memory in bytes (VmRSS), or undefined where /proc is not available. */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
