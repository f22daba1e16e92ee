import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase, resolveDatabase } from '../common/database';
import { log, parseArgs } from '../common/log';
import { percentile } from './sampling';
import { startService } from './services';

/**
 * A valid key's latency through the gateway, alone and while random keys flood it (issue 9:
 * 1,500 random-key requests took a valid key's p95 from 15 ms to 594 ms; issue 37: from 28 ms to
 * 2,713 ms, and a key used for the first time got 503). Two kinds of valid key are measured side
 * by side: a `cached` key (in use, so in the gateway's key cache) and `fresh` keys, each used once,
 * for the first time, during the phase (each one a lookup in PostgreSQL). A valid request
 * answered anything but 2xx is a failure.
 *
 * `npm run bench:key-flood -- [--requests 400] [--fresh 100] [--flood 1500] [--rate 150]
 *   [--connections 64] [--addresses 100] [--shapes both|legacy] [--key-ttl <ms>]`
 *
 * The flood runs in a process of its own (this file, forked once with `--flood-worker`), so its
 * requests and the measured ones do not share an event loop; the gateway in a third (built
 * `dist/`), proxying to a stand-in upstream in this one, so what is measured is admission, not a
 * catalogue query. A flood is at least `--flood` requests and lasts until the measured requests
 * are done, of random well-formed keys: alternately of the checked shape and the legacy one
 * (`--shapes legacy`: legacy only, the one shape a gateway before issue 37 knew). It is either
 * paced (32 connections, `--rate` requests per second) or unpaced (Hardening III: a closed loop on
 * `--connections` connections, each sending its next key as soon as its last is answered; what
 * an attacker who does not care for its answers' latency sends). Phases: quiet; then, paced and
 * unpaced (0 for `--rate` or `--connections` leaves those out), a flood from one address
 * (127.0.0.1, also the measured keys' address, so it is blocked after AUTH_FAILURES_PER_MINUTE)
 * and a flood spread over `--addresses` addresses. Many addresses are real TCP peers, 127.1.0.10
 * and up (Linux routes all of 127/8 to lo), not X-Forwarded-For: the gateway here trusts no
 * proxy; the measured keys come from an address of their own then (127.0.0.2, 127.0.0.3). The gateway runs without API_KEY_SECRET (its public default): the
 * flood's keys are random, so the check stops them as a MAC would.
 */

const agents = new Map<string, Agent>();
function call(url: string, key: string, from: string): Promise<{ status: number; ms: number }> {
  let agent = agents.get(from);
  // As many sockets as the largest flood has loops: each loop is a connection of its own.
  if (!agent) agents.set(from, (agent = new Agent({ keepAlive: true, maxSockets: 256, localAddress: from })));
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

// --- The flood, in its own process. ---

interface FloodOrder {
  readonly url: string;
  readonly addresses: readonly string[];
  readonly minCount: number;
  /** Requests per second; 0, a closed loop on each connection (as fast as the gateway answers). */
  readonly rate: number;
  /** Requests in progress at once. */
  readonly connections: number;
  readonly shapes: 'both' | 'legacy';
}
interface FloodReport {
  readonly sent: number;
  readonly statuses: Record<number, number>;
  readonly ms: number;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomKey = (chars: number): string =>
  `tcg_${Array.from(randomBytes(chars), (b) => BASE62[b % 62]).join('')}`;

/**
 * The worker: waits for orders; floods for each until told to stop (and at least `minCount`),
 * saying `started` once its first `connections` requests are answered, then its report.
 */
function floodWorker(): void {
  let stop = false;
  process.on('message', (message: FloodOrder | 'stop') => {
    if (message === 'stop') {
      stop = true;
      return;
    }
    stop = false;
    void flood(message);
  });
  const flood = async (order: FloodOrder): Promise<void> => {
    const statuses: Record<number, number> = {};
    let next = 0;
    let answered = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: order.connections }, async () => {
        while (!stop || next < order.minCount) {
          const i = next++;
          const due = started + (order.rate > 0 ? (i * 1000) / order.rate : 0);
          if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
          const key = order.shapes === 'legacy' || i % 2 === 0 ? randomKey(32) : randomKey(43);
          const { status } = await call(order.url, key, order.addresses[i % order.addresses.length]!);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (++answered === order.connections) process.send!({ kind: 'started' });
        }
      }),
    );
    process.send!({ kind: 'report', sent: next, statuses, ms: Date.now() - started });
  };
}

/**
 * The flood's process, started once before the first phase (so that loading its modules is not
 * part of any phase): `run` starts a flood and resolves once it is under way; `stop` ends it (once
 * `minCount` are sent) and reports.
 */
function floodProcess(): {
  run: (order: FloodOrder) => Promise<{ stop: () => Promise<FloodReport> }>;
  close: () => void;
} {
  const child = fork(__filename, ['--flood-worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (kind: 'started' | 'report'): Promise<FloodReport> =>
    new Promise((resolve, reject) => {
      const onMessage = (m: { kind: string } & FloodReport): void => {
        if (m.kind !== kind) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(m);
      };
      const onExit = (code: number | null): void => reject(new Error(`the flood worker exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    run: async (order) => {
      const started = next('started');
      child.send(order);
      await started;
      return {
        stop: () => {
          const report = next('report');
          child.send('stop');
          return report;
        },
      };
    },
    close: () => child.kill(),
  };
}

/** Connections of a paced flood: enough that its rate is never held back by its answers. */
const PACED_CONNECTIONS = 32;

const withoutWorker = <T extends { worker: unknown }>({ worker: _, ...rest }: T): Omit<T, 'worker'> => rest;

// --- The measured keys, in this process. ---

interface Row {
  requests: number;
  failures: number;
  statuses: Record<number, number>;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

function summarise(samples: { status: number; ms: number }[]): Row {
  const latencies = samples.map((s) => s.ms).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const round = (x: number): number => Math.round(x * 100) / 100;
  return {
    requests: samples.length,
    failures: samples.filter((s) => s.status < 200 || s.status > 299).length,
    statuses,
    p50_ms: round(percentile(latencies, 0.5)),
    p95_ms: round(percentile(latencies, 0.95)),
    p99_ms: round(percentile(latencies, 0.99)),
  };
}

/** CPU milliseconds (user + system) the process has used, from /proc (USER_HZ 100); 0 elsewhere. */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Key lookups the gateway sent to PostgreSQL so far (its admin port's `miss` count). */
async function databaseLookups(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const m = /^\w*gateway_api_key_cache_lookups_total\{[^}]*result="miss"[^}]*\} (\S+)$/m.exec(text);
  return m ? Number(m[1]) : 0;
}

/**
 * One phase: the cached key from 4 clients, `requests` in all, and the fresh keys one after
 * another, each once, all from `from`, while the flood (if any) runs.
 */
async function phase(
  url: string,
  metricsUrl: string,
  gatewayPid: number,
  from: string,
  cached: string,
  fresh: readonly string[],
  requests: number,
  flood?: Omit<FloodOrder, 'url'> & { worker: ReturnType<typeof floodProcess> },
): Promise<{ cached: Row; fresh: Row; flood?: FloodReport; lookups: number; gatewayCpuMs: number }> {
  const lookupsBefore = await databaseLookups(metricsUrl);
  const cpuBefore = cpuMsOf(gatewayPid);
  // Measuring starts once the flood is under way (and, from one address, blocked).
  const running = flood ? await flood.worker.run({ ...withoutWorker(flood), url }) : undefined;
  const cachedSamples: { status: number; ms: number }[] = [];
  const freshSamples: { status: number; ms: number }[] = [];
  let sent = 0;
  await Promise.all([
    ...Array.from({ length: 4 }, async () => {
      while (sent++ < requests) cachedSamples.push(await call(url, cached, from));
    }),
    (async () => {
      for (const key of fresh) freshSamples.push(await call(url, key, from));
    })(),
  ]);
  const report = running ? await running.stop() : undefined;
  return {
    cached: summarise(cachedSamples),
    fresh: summarise(freshSamples),
    flood: report,
    lookups: (await databaseLookups(metricsUrl)) - lookupsBefore,
    gatewayCpuMs: cpuMsOf(gatewayPid) - cpuBefore,
  };
}

async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const requests = Number(options.get('requests') ?? 400);
  const freshCount = Number(options.get('fresh') ?? 100);
  const minCount = Number(options.get('flood') ?? 1500);
  const rate = Number(options.get('rate') ?? 150);
  const connections = Number(options.get('connections') ?? 64);
  const addressCount = Number(options.get('addresses') ?? 100);
  const shapes: FloodOrder['shapes'] = options.get('shapes') === 'legacy' ? 'legacy' : 'both';
  const keyTtl = options.get('key-ttl');
  const upstream = createServer((req, res) => {
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const db = await resolveDatabase();
  const ds = await openDatabase(db.url);
  const floodWorkerProcess = floodProcess();
  const gateway = await startService('api-gateway', {
    DATABASE_URL: db.url,
    INTERNAL_TOKEN: randomBytes(24).toString('base64url'),
    API_V1_URL: upstreamUrl,
    API_V2_URL: upstreamUrl,
    // A short TTL makes the cached key's refreshes fall inside the flood, as in production over time.
    ...(typeof keyTtl === 'string' ? { KEY_CACHE_TTL_MS: keyTtl } : {}),
    ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
  });
  try {
    const repo = new TypeOrmApiKeyRepository(ds);
    const url = `${gateway.url}/v1/x`;
    const metricsUrl = gateway.healthUrl.replace(/\/health$/, '/metrics');
    const issue = async (): Promise<string> => (await repo.create('enterprise', 'bench-key-flood')).key;
    // A fresh enterprise key per phase for the cached one, so no phase runs into its per-minute
    // limit; it is used 20 times first, so it is cached and the JIT warm.
    const cachedKey = async (from: string): Promise<string> => {
      const key = await issue();
      for (let i = 0; i < 20; i++) await call(url, key, from);
      return key;
    };
    const freshKeys = async (): Promise<string[]> => {
      const keys: string[] = [];
      for (let i = 0; i < freshCount; i++) keys.push(await issue());
      return keys;
    };
    /** A phase whose measured keys (one cached, fresh ones issued for it) call from `from`. */
    const phaseFrom = async (from: string, count: number, flood?: Parameters<typeof phase>[7]) =>
      phase(url, metricsUrl, gateway.pid, from, await cachedKey(from), await freshKeys(), count, flood);
    await phaseFrom('127.0.0.1', 200); // warm-up
    const quiet = await phaseFrom('127.0.0.1', requests);
    const phases: Record<string, Awaited<ReturnType<typeof phase>>> = { quiet };
    const floods = [
      ...(rate > 0 ? [{ name: `paced ${rate}/s`, rate, connections: PACED_CONNECTIONS }] : []),
      ...(connections > 0 ? [{ name: `unpaced ×${connections}`, rate: 0, connections }] : []),
    ];
    for (const [i, { name, rate, connections }] of floods.entries()) {
      const flood = { minCount, rate, connections, shapes, worker: floodWorkerProcess };
      phases[`${name}, one address`] = await phaseFrom('127.0.0.1', requests, {
        ...flood,
        addresses: ['127.0.0.1'],
      });
      // The measured keys from an address of their own: 127.0.0.1 is blocked for a minute now; and
      // flood addresses of the phase's own, so that none starts the phase blocked.
      const from = `127.0.0.${2 + i}`;
      phases[`${name}, ${addressCount} addresses`] = await phaseFrom(from, requests, {
        ...flood,
        addresses: Array.from(
          { length: addressCount },
          (_, j) => `127.${1 + i}.${Math.floor(j / 200)}.${10 + (j % 200)}`,
        ),
      });
    }
    const table: Record<string, Record<string, unknown>> = {};
    for (const [name, p] of Object.entries(phases))
      for (const kind of ['cached', 'fresh'] as const) {
        const row = p[kind];
        const baseline = quiet[kind].p95_ms;
        table[`${name}: ${kind} key${kind === 'fresh' ? 's' : ''}`] = {
          requests: row.requests,
          'non-2xx': row.failures,
          'p50 ms': row.p50_ms,
          'p95 ms': row.p95_ms,
          'p99 ms': row.p99_ms,
          'p95 / quiet': Math.round((row.p95_ms / baseline) * 100) / 100,
          'flood sent': p.flood?.sent ?? '-',
          'flood req/s': p.flood ? Math.round((p.flood.sent * 1000) / p.flood.ms) : '-',
          // What the flood was answered: 401, then 429 once its address is blocked.
          'flood answers': p.flood
            ? Object.entries(p.flood.statuses)
                .map(([status, n]) => `${status}×${n}`)
                .join(' ')
            : '-',
          // The fresh keys' own first lookups are among them (one each), and a cached key's refreshes.
          'DB lookups': p.lookups,
          // What one request (measured or flood) cost the gateway on average: load-independent.
          'gateway CPU µs/req': Math.round(
            (p.gatewayCpuMs * 1000) / (p.cached.requests + p.fresh.requests + (p.flood?.sent ?? 0)),
          ),
        };
      }
    console.table(table);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'key-flood',
        redis: Boolean(process.env['REDIS_URL']),
        flood_rate: rate,
        flood_connections: connections,
        shapes,
        key_cache_ttl_ms: typeof keyTtl === 'string' ? Number(keyTtl) : 'default',
        phases,
      })}\n`,
    );
    await ds.query(
      `UPDATE api_keys SET revoked_at = now() WHERE label = 'bench-key-flood' AND revoked_at IS NULL`,
    );
  } finally {
    floodWorkerProcess.close();
    for (const a of agents.values()) a.destroy();
    await gateway.stop();
    await ds.destroy();
    await db.stop();
    upstream.close();
  }
}

if (process.argv.includes('--flood-worker')) floodWorker();
else
  main().catch((error: unknown) => {
    log('error', 'bench failed', { error: (error as Error).message });
    process.exit(1);
  });
