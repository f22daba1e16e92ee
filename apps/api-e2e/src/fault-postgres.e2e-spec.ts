import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { Client } from 'pg';
import { createDataSource } from '@tcg/persistence';
import { encodeUsage, INTERNAL_HEADERS } from '@tcg/http-service/contract';
import { dragon, seedOwnDatabase } from './fixtures';
import { serverProcesses, signal, startEmbeddedPostgres, type EmbeddedServer } from './owned-postgres';
import { freePort, INTERNAL_TOKEN, startStack, Stack } from './stack';

/**
 * PostgreSQL stopped (SIGSTOP: it never answers) and shut down under traffic, on a server this
 * suite starts itself: every request is answered within the services' deadlines, as a 503 with
 * Retry-After in the version's shape where it needed the database, and the stack serves again
 * by itself once PostgreSQL is back. The machine's shared PostgreSQL is never touched.
 */

/** Deadlines shorter than the defaults, so a stalled request ends well within the gateway's 10 s. */
const DEADLINES = {
  DATABASE_CONNECT_TIMEOUT_MS: '1000',
  DATABASE_STATEMENT_TIMEOUT_MS: '1500',
  SERVER_HEADERS_TIMEOUT_MS: '1000',
  SERVER_REQUEST_TIMEOUT_MS: '2000',
};
/** Far past the services' deadlines: a request still open this long has hung. */
const HUNG_MS = 15_000;
/** What api-v1 and api-v2 say when their database fails them. */
const SERVICE_MESSAGE = 'The database is unavailable. Retry shortly.';
/** What the gateway adds to a request it admitted; a direct call to a service carries the same. */
const WINDOW = { limit: 1000, used: 1, resetSeconds: 60 };
const GATEWAY_HEADERS = {
  [INTERNAL_HEADERS.credential]: INTERNAL_TOKEN,
  [INTERNAL_HEADERS.usage]: encodeUsage({ plan: 'enterprise', minute: WINDOW, day: WINDOW, month: WINDOW }),
};

interface Outcome {
  readonly version: 'v1' | 'v2';
  /** 0: no answer before HUNG_MS (or the connection failed). */
  readonly status: number;
  readonly ms: number;
  /** Who answered an error: the service (its database message) or the gateway. */
  readonly from?: 'service' | 'gateway';
  /** Why the answer is not what this status must look like; undefined when it is. */
  readonly wrong?: string;
}

describe('PostgreSQL faults under traffic', () => {
  let dir: string;
  let port: number;
  let pg: EmbeddedServer;
  let stack: Stack;
  let key: string;
  let stopped: number[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tcg-fault-pg-'));
    await chmod(dir, 0o755); // as root the server runs as the postgres user, which must reach it
    port = await freePort();
    pg = await startEmbeddedPostgres({ dataDir: join(dir, 'data'), port, persistent: true });
    const admin = new Client({ connectionString: pg.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE tcg_fault');
    await admin.end();
    const url = pg.url('tcg_fault');
    const ds = await createDataSource({ url, poolSize: 2, applicationName: 'fault-setup' }).initialize();
    try {
      key = await seedOwnDatabase(ds, 'fault');
    } finally {
      await ds.destroy();
    }
    stack = await startStack({
      databaseUrl: url,
      // Every lookup must read the database here: with the response cache on, a lookup answered
      // before the fault would be answered again from memory until the service learns that the
      // data version is unknown (the http-caching and data-version suites test that part).
      env: { ...DEADLINES, RESPONSE_CACHE_MAX_BYTES: '0' },
      // The key stays cached through the outage: what is tested here is the services' answer.
      gatewayEnv: { KEY_CACHE_TTL_MS: '60000', UPSTREAM_TIMEOUT_MS: '10000' },
    });
  }, 60_000);

  afterAll(async () => {
    signal(stopped, 'SIGCONT'); // a stopped server would never act on the shutdown signal
    await stack?.close();
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  /** A lookup through the gateway, or `direct` to the service as the gateway would send it. */
  const request = async (version: 'v1' | 'v2', direct = false): Promise<Outcome> => {
    const path = version === 'v1' ? `/v1/cards?cardId=${dragon.id}` : `/v2/cards/${dragon.id}`;
    const base = direct ? (version === 'v1' ? stack.v1Url : stack.v2Url) : stack.gatewayUrl;
    const started = Date.now();
    try {
      const res = await fetch(`${base}${path}`, {
        headers: direct ? GATEWAY_HEADERS : { 'x-api-key': key },
        signal: AbortSignal.timeout(HUNG_MS),
      });
      const body = await res.text();
      return {
        version,
        status: res.status,
        ms: Date.now() - started,
        ...(res.status === 200 ? {} : { from: body.includes(SERVICE_MESSAGE) ? 'service' : 'gateway' }),
        wrong: misshapen(version, res, body),
      };
    } catch (error) {
      return { version, status: 0, ms: Date.now() - started, wrong: String(error) };
    }
  };

  /**
   * Four clients, each sending v1 and v2 lookups one after the other, at most ten a second (fast
   * 503s would otherwise spend the key's per-minute quota), for `ms`.
   */
  const traffic = async (ms: number): Promise<Outcome[]> => {
    const end = Date.now() + ms;
    const outcomes: Outcome[] = [];
    await Promise.all(
      [0, 1, 2, 3].map(async (client) => {
        for (let i = client; Date.now() < end; i++) {
          const next = Date.now() + 100;
          outcomes.push(await request(i % 2 ? 'v2' : 'v1'));
          await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
        }
      }),
    );
    return outcomes;
  };

  /** Traffic until both versions answer 200 again, then a second of traffic that must all succeed. */
  const expectRecovery = async (): Promise<{ recoveredMs: number; after: Outcome[] }> => {
    const started = Date.now();
    const ok = new Set<string>();
    while (ok.size < 2 && Date.now() - started < 30_000)
      for (const o of await traffic(200)) if (o.status === 200) ok.add(o.version);
    const recoveredMs = Date.now() - started;
    const after = await traffic(1000);
    expect(after.filter((o) => o.status !== 200)).toEqual([]);
    return { recoveredMs, after };
  };

  const expectAnsweredInShape = (outcomes: Outcome[]) => {
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => ![200, 503, 504].includes(o.status) || o.wrong)).toEqual([]);
  };

  /** Both services asked directly, so their own answer is seen whatever the gateway does. */
  const directCalls = () => Promise.all([request('v1', true), request('v2', true)]);

  /**
   * Each service's own /health and /health/ready, which must answer within their deadline too,
   * and /health/live, which reads nothing: an orchestrator restarts no pod for a database outage.
   */
  const healthChecks = () =>
    Promise.all(
      [stack.v1Url, stack.v2Url].flatMap((url) =>
        ['/health', '/health/ready', '/health/live'].map(async (path) => {
          const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(HUNG_MS) });
          return { path, status: res.status, retryAfter: res.headers.get('retry-after') };
        }),
      ),
    );

  const expectServiceUnavailable = (outcomes: Outcome[]) => {
    for (const o of outcomes) expect(o).toMatchObject({ status: 503, from: 'service', wrong: undefined });
  };

  it('cuts off a client that never finishes its request headers, on both services', async () => {
    for (const url of [stack.v1Url, stack.v2Url]) {
      const { port: servicePort } = new URL(url);
      const answer = await new Promise<string>((done, fail) => {
        let received = '';
        const socket = connect(Number(servicePort), '127.0.0.1', () =>
          socket.write('GET /health HTTP/1.1\r\nHost: service\r\n'),
        );
        socket.setTimeout(HUNG_MS, () => fail(new Error(`${url} kept a stalled request open`)));
        socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
        socket.on('close', () => done(received));
        socket.on('error', fail);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    }
  });

  it('serves before any fault', async () => {
    const outcomes = await traffic(1000);
    expect(outcomes.filter((o) => o.status !== 200)).toEqual([]);
  });

  it('answers every request while PostgreSQL is stopped (SIGSTOP), and serves again after SIGCONT', async () => {
    stopped = serverProcesses(pg.dataDir);
    signal(stopped, 'SIGSTOP');
    const [during, direct, health] = await Promise.all([traffic(6000), directCalls(), healthChecks()]);
    signal(stopped, 'SIGCONT');
    stopped = [];
    report('postgres stopped (SIGSTOP), 6 s of traffic', during);
    report('postgres stopped (SIGSTOP), straight to the services', direct);
    expectAnsweredInShape(during);
    expectServiceUnavailable(direct);
    const unavailable = { status: 503, retryAfter: expect.stringMatching(/^\d+$/) };
    const live = { path: '/health/live', status: 200, retryAfter: null };
    expect(health).toEqual(
      [1, 2].flatMap(() => [
        { path: '/health', ...unavailable },
        { path: '/health/ready', ...unavailable },
        live,
      ]),
    );
    // Every lookup reads the database: none of them can have succeeded while it was stopped...
    expect(during.filter((o) => o.status === 503).length).toBeGreaterThan(0);
    const { recoveredMs, after } = await expectRecovery();
    report(`after SIGCONT (first 200 of each version after ${recoveredMs} ms)`, after);
  }, 60_000);

  it('answers every request while PostgreSQL is shut down, and serves again once it restarts', async () => {
    await pg.stop(); // fast shutdown; the data directory is kept (persistent)
    const [during, direct] = await Promise.all([traffic(3000), directCalls()]);
    report('postgres shut down, 3 s of traffic', during);
    report('postgres shut down, straight to the services', direct);
    expectAnsweredInShape(during);
    expectServiceUnavailable(direct);
    expect(during.filter((o) => o.status === 503).length).toBeGreaterThan(0);
    pg = await startEmbeddedPostgres({ dataDir: join(dir, 'data'), port, persistent: false });
    const { recoveredMs, after } = await expectRecovery();
    report(`after restart (first 200 of each version after ${recoveredMs} ms)`, after);
  }, 60_000);
});

/** What is wrong with an answer of this status for this version; undefined when nothing. */
function misshapen(version: 'v1' | 'v2', res: Response, text: string): string | undefined {
  if (res.status === 200) return undefined;
  const code =
    res.status === 503 ? 'SERVICE_UNAVAILABLE' : res.status === 504 ? 'GATEWAY_TIMEOUT' : undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return `${res.status}: not JSON: ${text.slice(0, 200)}`;
  }
  if (body['code'] !== code) return `${res.status}: code ${String(body['code'])}`;
  if (/\bat \S+:\d+|pg_|SELECT|ECONN|timeout exceeded|terminated/i.test(text))
    return `${res.status}: leaks internals: ${text.slice(0, 200)}`;
  if (res.status === 503 && !/^\d+$/.test(res.headers.get('retry-after') ?? ''))
    return '503 without Retry-After';
  if (version === 'v1') {
    const keys = Object.keys(body).sort().join(',');
    return keys === 'code,error' ? undefined : `v1 body has ${keys}`;
  }
  if (!res.headers.get('content-type')?.startsWith('application/problem+json'))
    return `v2 content-type ${res.headers.get('content-type')}`;
  return body['status'] === res.status &&
    typeof body['type'] === 'string' &&
    typeof body['detail'] === 'string'
    ? undefined
    : `v2 body ${text.slice(0, 200)}`;
}

/** Statuses and latencies seen, on stdout for the run's log (measurements, not assertions). */
function report(scenario: string, outcomes: Outcome[]): void {
  const statuses: Record<string, number> = {};
  for (const o of outcomes) {
    const seen = `${o.version} ${o.status}${o.from ? ` from ${o.from}` : ''}`;
    statuses[seen] = (statuses[seen] ?? 0) + 1;
  }
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
  process.stdout.write(
    `${JSON.stringify({ scenario, requests: outcomes.length, statuses, p50: at(0.5), p95: at(0.95), max: at(1) })}\n`,
  );
}
