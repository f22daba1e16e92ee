import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDataSource, migrate, QuotaCounterRepository, TypeOrmApiKeyRepository } from '@tcg/persistence';
import { withinOneMinute } from './clock';
import { startEchoUpstream } from './echo-upstream';
import { serverProcesses, signal, startEmbeddedPostgres, type EmbeddedServer } from './owned-postgres';
import { freePort, startStack, Stack } from './stack';

/**
 * The gateway's own PostgreSQL (API keys, and quotas without Redis) stopped with SIGSTOP — it
 * accepts connections and never answers — on a server this suite starts; the machine's shared
 * PostgreSQL is never touched. The services stay on the worker's database: what is tested is
 * admission. While the server is stopped, a key in use keeps working (served stale), a key the
 * gateway has not seen is a 503 with Retry-After (never a hang, a 500 or a 401), quotas are
 * counted in memory from the usage last seen, and readiness says so; after SIGCONT, new keys work
 * again and PostgreSQL's counters include what memory admitted.
 */

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe("fault: the gateway's PostgreSQL stopped (SIGSTOP) and resumed mid-traffic", () => {
  let dir: string;
  let pg: EmbeddedServer;
  let url: string;
  let stack: Stack;
  let echo: Awaited<ReturnType<typeof startEchoUpstream>>;
  let keys: { inUse: string; unseen: string; small: string; smallId: string };
  let stopped: number[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tcg-fault-gw-pg-'));
    await chmod(dir, 0o755); // as root the server runs as the postgres user, which must reach it
    pg = await startEmbeddedPostgres({
      dataDir: join(dir, 'data'),
      port: await freePort(),
      persistent: true,
    });
    const admin = new Client({ connectionString: pg.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE tcg_fault_gw');
    await admin.end();
    url = pg.url('tcg_fault_gw');
    const ds = await createDataSource({ url, poolSize: 1, applicationName: 'fault-setup' }).initialize();
    try {
      await migrate(ds);
      const repo = new TypeOrmApiKeyRepository(ds);
      const small = await repo.create('free', 'fault-small'); // 10 a minute
      keys = {
        inUse: (await repo.create('enterprise', 'fault-in-use')).key,
        unseen: (await repo.create('enterprise', 'fault-unseen')).key,
        small: small.key,
        smallId: small.record.id,
      };
    } finally {
      await ds.destroy();
    }
    echo = await startEchoUpstream();
    stack = await startStack({
      v1Url: echo.url,
      metrics: true,
      gatewayEnv: {
        DATABASE_URL: url,
        KEY_CACHE_TTL_MS: '500',
        KEY_LOOKUP_TIMEOUT_MS: '500',
        QUOTA_DB_TIMEOUT_MS: '300',
      },
    });
  }, 60_000);

  afterAll(async () => {
    signal(stopped, 'SIGCONT'); // a stopped server would never act on the shutdown signal
    await stack?.close();
    await echo?.close();
    await pg?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  /** A gateway stuck on the stopped database would make this throw (an abort), not answer. */
  const call = (path: string, key?: string): Promise<Response> =>
    fetch(`${stack.gatewayUrl}${path}`, {
      headers: key ? { 'x-api-key': key } : {},
      signal: AbortSignal.timeout(10_000),
    });
  /** The gateway's health details, from its admin port. */
  const details = (): Promise<Response> =>
    fetch(stack.healthUrls.gateway, { signal: AbortSignal.timeout(10_000) });
  const status = async (path: string, key?: string): Promise<number> => {
    const res = await call(path, key);
    await res.arrayBuffer();
    return res.status;
  };

  it('admits keys in use, refuses unseen ones with 503, limits from memory, and writes the counts back', async () => {
    await withinOneMinute(40);
    const minute = `m:${Math.floor(Date.now() / 60_000)}`;
    expect(await status('/v1/x', keys.inUse)).toBe(200);
    for (let i = 0; i < 3; i++) expect(await status('/v1/x', keys.small)).toBe(200);

    stopped = serverProcesses(join(dir, 'data'));
    signal(stopped, 'SIGSTOP');
    await sleep(600); // past KEY_CACHE_TTL_MS: the key in use now needs a refresh that cannot come

    expect(await status('/v1/x', keys.inUse)).toBe(200);
    const v1 = await call('/v1/x', keys.unseen);
    expect(v1.status).toBe(503);
    expect(Number(v1.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await v1.json()).toEqual({ error: expect.any(String), code: 'SERVICE_UNAVAILABLE' });
    const v2 = await call('/v2/cards', keys.unseen);
    expect(v2.status).toBe(503);
    expect(v2.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await v2.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    // A malformed key never needed the database: still a 401.
    expect(await status('/v1/x', 'tcg_guess')).toBe(401);

    const during: number[] = [];
    for (let i = 0; i < 9; i++) during.push(await status('/v1/x', keys.small));
    // From the 3 PostgreSQL counted: 7 more, then 429 — never unlimited.
    expect(during).toEqual([200, 200, 200, 200, 200, 200, 200, 429, 429]);

    expect(await status('/health/live')).toBe(200);
    await sleep(1100); // past the readiness cache
    const ready = await call('/health/ready');
    expect(ready.status).toBe(503);
    // Open to anyone: degraded, and not that limits are counted in memory now.
    expect(await ready.json()).toEqual({ status: 'degraded', service: 'api-gateway' });
    const inDetail = await details();
    expect(inDetail.status).toBe(503);
    expect(await inDetail.json()).toMatchObject({
      status: 'degraded',
      database: 'down',
      limits: { store: 'postgres', counting: 'memory' },
    });

    signal(stopped, 'SIGCONT');
    stopped = [];
    let unseen = 0;
    for (let i = 0; i < 60 && unseen !== 200; i++) {
      await sleep(250);
      unseen = await status('/v1/x', keys.unseen);
    }
    expect(unseen).toBe(200);

    const ds = await createDataSource({ url, poolSize: 1, applicationName: 'fault-check' }).initialize();
    try {
      const counters = new QuotaCounterRepository(ds);
      let counted = 0;
      for (let i = 0; i < 60 && counted < 10; i++) {
        expect(await status('/v1/x', keys.small)).toBe(429); // each call also lets the gateway probe
        counted = await counters.used(keys.smallId, minute);
        if (counted < 10) await sleep(250);
      }
      expect(counted).toBe(10);
    } finally {
      await ds.destroy();
    }
    await sleep(1100);
    expect(await status('/health/ready')).toBe(200);
    const ready2 = await details();
    expect(ready2.status).toBe(200);
    expect(await ready2.json()).toMatchObject({ database: 'up', limits: { counting: 'postgres' } });
  });
});
