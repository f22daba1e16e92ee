import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, Server } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { resolveDatabase } from '../common/database';
import { freePort } from '@tcg/persistence/testing';
import { portOpen } from '../common/ports';

/**
 * `npm start` (`node dist/tools/start/start.js`, so build first) killed during its first load, then
 * started again — on its own embedded PostgreSQL, data directory and ports, never the shared ones.
 */
const START = join(resolve(__dirname, '../..'), 'dist/tools/start/start.js');
const KEYS = join(resolve(__dirname, '../..'), 'dist/tools/keys/keys.js');

interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<number | string>;
  stdout(): string;
  stderr(): string;
}

async function until(what: string, check: () => boolean, run: Run, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (run.child.exitCode !== null)
      throw new Error(`start exited before ${what}: ${run.stderr().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${run.stderr().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The JSON log lines with this message. */
function logged(stderr: string, msg: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.includes(`"msg":"${msg}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('npm start killed during its first load', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let pgPort: number;
  let gatewayPort: number;
  const runs: Run[] = [];

  function start(envOf: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv = (e) => e): Run {
    // Its own process group, as a terminal runs it, so a kill can take the services with it.
    const child = spawn(process.execPath, [START], {
      env: envOf(env),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | string>((done) =>
      child.once('exit', (code, signal) => done(code ?? signal ?? -1)),
    );
    const run = { child, exited, stdout: () => stdout, stderr: () => stderr };
    runs.push(run);
    return run;
  }

  beforeAll(async () => {
    ({ dataDir, pgPort, gatewayPort, env } = await isolatedStart('tcg-start-'));
  });
  afterAll(async () => {
    for (const { child } of runs)
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    // A server left by a failed test is stopped by taking and giving back the last lease.
    if (await portOpen(pgPort)) await (await resolveDatabase(env)).stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the next start removes the partial catalogue, loads it whole and serves it', async () => {
    const first = start();
    await until('the first load batch', () => logged(first.stderr(), 'load progress').length > 0, first);
    process.kill(-first.child.pid!, 'SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(logged(first.stderr(), 'sample loaded')).toEqual([]); // killed mid-load

    // The superuser's password is random, kept beside the cluster for this user only.
    const passwordFile = join(dataDir, 'postgres.password');
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password).toMatch(/^[\w-]{32}$/);
    const guessed = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/tcg` });
    await expect(guessed.connect()).rejects.toThrow(/password authentication failed/);
    await guessed.end().catch(() => undefined);
    const db = new Client({ connectionString: `postgres://postgres:${password}@127.0.0.1:${pgPort}/tcg` });
    const one = async (sql: string) => (await db.query(sql)).rows[0] as Record<string, unknown>;
    await db.connect(); // the server outlives the start that was killed
    try {
      expect(await one('SELECT completed_at FROM sample_loads')).toEqual({ completed_at: null });

      const second = start();
      await until('the services', () => second.stdout().includes('is up at'), second);
      expect(
        logged(
          second.stderr(),
          'the previous sample load was interrupted: removing the partial catalogue and loading again',
        ),
      ).toHaveLength(1);
      const [report] = logged(second.stderr(), 'sample loaded');
      expect(report).toMatchObject({ size: 'small' });

      expect(await one(`SELECT size, completed_at IS NOT NULL AS complete FROM sample_loads`)).toEqual({
        size: 'small',
        complete: true,
      });
      expect(
        await one(`SELECT (SELECT count(*)::int FROM cards) AS cards,
                          (SELECT count(*)::int FROM variants WHERE type = 'raw') AS "rawVariants",
                          (SELECT count(*)::int FROM variants WHERE type = 'graded') AS "gradedVariants",
                          (SELECT count(*)::int FROM variant_prices) AS "pricedVariants",
                          (SELECT sum(cardinality(offsets))::int FROM price_series) AS observations,
                          (SELECT count(*)::int FROM summary_marks) AS marks,
                          (SELECT count(*)::int FROM card_values) = (SELECT count(DISTINCT v.card_uuid)::int
                             FROM variants v JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'
                             WHERE v.type = 'raw') AS "summariesComplete"`),
      ).toEqual({
        cards: report!['cards'],
        rawVariants: report!['rawVariants'],
        gradedVariants: report!['gradedVariants'],
        pricedVariants: report!['pricedVariants'],
        observations: report!['observations'],
        marks: 0,
        summariesComplete: true,
      });

      const key = /Demo API key \([a-z]+ plan\): (\S+)/.exec(second.stdout())![1]!;
      const games = await fetch(`http://127.0.0.1:${gatewayPort}/v1/games`, {
        headers: { 'x-api-key': key },
      });
      expect(games.status).toBe(200);
      expect(((await games.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      // The banner names the pages, and the explorer comes with the demo key in its key field.
      expect(second.stdout()).toMatch(
        /Price explorer: http:\/\/127\.0\.0\.1:\d+\/\n +API reference: +http:\/\/127\.0\.0\.1:\d+\/docs\n/,
      );
      const explorer = await (await fetch(`http://127.0.0.1:${gatewayPort}/`)).text();
      expect(explorer).toContain(`value="${key}"`);
      // Loopback only (HOST unset): the gateway and both services, so no other machine sees the key.
      expect(
        listeningAddresses([gatewayPort, Number(env['API_V1_PORT']), Number(env['API_V2_PORT'])]),
      ).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);

      // The batch work runs in the worker, at a lower CPU priority, not in the serving api-v1.
      const [announced] = logged(second.stderr(), 'starting the services');
      expect((announced!['ports'] as Record<string, unknown>)['api-v1-worker']).toEqual({
        port: null,
        metricsPort: expect.any(Number),
      });
      const worker = childrenOf(second.child.pid!).find((pid) => commandOf(pid).includes('worker.js'));
      expect(worker).toBeDefined();
      expect(nicenessOf(worker!)).toBe(10);
      await until('a bulk file written', () => bulkWriters(second.stdout()).length > 0, second, 60_000);
      expect(new Set(bulkWriters(second.stdout()))).toEqual(new Set(['api-v1-worker']));

      await db.end();
      // Ctrl-C: the services stop, and the embedded server with them (no other user left).
      process.kill(second.child.pid!, 'SIGINT');
      expect(await second.exited).toBe(0);
      expect(await portOpen(pgPort)).toBe(false);
    } finally {
      await db.end().catch(() => undefined);
    }
  }, 180_000);

  it('a start after a writer was killed before its refresh refreshes the summaries', async () => {
    // The write of an import killed between its last commit and its refresh: data and mark, no
    // refresh. Done under a lease of its own, as a tool would (the server starts and stops with it).
    const writer = await resolveDatabase(env);
    await withClient(writer.url, async (db) => {
      await db.query('BEGIN');
      await db.query(`UPDATE variant_prices SET price = price + 100000
                      WHERE region = 'NA' AND variant_uuid = (SELECT v.uuid FROM card_values c
                        JOIN variants v ON v.card_uuid = c.card_uuid AND v.type = 'raw'
                        JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'
                        ORDER BY c.card_uuid LIMIT 1)`);
      await db.query('INSERT INTO summary_marks DEFAULT VALUES');
      await db.query('COMMIT');
      expect(await cardValueDrift(db)).toBeGreaterThan(0);
      // As a data directory of an older version has it: postgres/postgres and no password file.
      await db.query(`ALTER ROLE postgres PASSWORD 'postgres'`);
    });
    await writer.stop();
    expect(await portOpen(pgPort)).toBe(false);
    await rm(join(dataDir, 'postgres.password'));

    // This time the services' default ports are taken (by this test, or by whatever holds them):
    // for the minute this start takes, an `npm start` of someone else's would move too.
    // And the demo key was revoked meanwhile, with the keys CLI: it stays revoked.
    const revoked = await runKeys(env, ['revoke', demoKeyOf(dataDir).slice(0, 12)]);
    expect(revoked).toMatchObject({ code: 0 });
    const holders = await Promise.all([8081, 8082].map(holdPort));
    const third = start(({ API_V1_PORT: _v1, API_V2_PORT: _v2, ...e }) => e);
    try {
      await until('the services', () => third.stdout().includes('is up at'), third);
      expect(third.stdout()).toContain('Demo API key: revoked (it stays so). Create a key with:');
      expect(third.stdout()).toContain('npm run keys -- create --plan starter');
      expect(third.stdout()).not.toContain(demoKeyOf(dataDir));
      expect(
        (
          await fetch(`http://127.0.0.1:${gatewayPort}/v1/games`, {
            headers: { 'x-api-key': demoKeyOf(dataDir) },
          })
        ).status,
      ).toBe(401);
      const explorer = await (await fetch(`http://127.0.0.1:${gatewayPort}/`)).text();
      expect(explorer).not.toContain(demoKeyOf(dataDir));
      expect(logged(third.stderr(), 'summaries were stale: refreshed')).toHaveLength(1);
      expect(logged(third.stderr(), 'sample loaded')).toEqual([]); // the load was complete
      // The old password was replaced by a random one, kept in a new password file.
      expect(statSync(join(dataDir, 'postgres.password')).mode & 0o777).toBe(0o600);
      const guessed = new Client({
        connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/tcg`,
      });
      await expect(guessed.connect()).rejects.toThrow(/password authentication failed/);
      await guessed.end().catch(() => undefined);
      const password = readFileSync(join(dataDir, 'postgres.password'), 'utf8').trim();
      await withClient(`postgres://postgres:${password}@127.0.0.1:${pgPort}/tcg`, async (db) => {
        expect(await cardValueDrift(db)).toBe(0);
        expect((await db.query('SELECT count(*)::int AS n FROM summary_marks')).rows[0].n).toBe(0);
      });
      const moved = logged(third.stderr(), 'default port taken: using a free one');
      expect(moved.map((m) => [m['service'], m['taken']])).toEqual([
        ['api-v1', 8081],
        ['api-v2', 8082],
      ]);
      expect(moved.every((m) => m['port'] !== 8081 && m['port'] !== 8082)).toBe(true);
      // The gateway reaches both services on their new ports.
      const key = (await runKeys(env, ['create', '--plan', 'starter'])).stdout.trim();
      for (const path of ['/v1/games', '/v2/cards?q=dragon&limit=1'])
        expect(
          (await fetch(`http://127.0.0.1:${gatewayPort}${path}`, { headers: { 'x-api-key': key } })).status,
        ).toBe(200);
      process.kill(third.child.pid!, 'SIGINT');
      expect(await third.exited).toBe(0);
    } finally {
      for (const h of holders) h?.close();
      // A failed expectation must not leave this start holding the ports the next test takes.
      if (third.child.exitCode === null) third.child.kill('SIGINT');
      await third.exited;
    }
  }, 120_000);

  /** The ports the start announced just before spawning the services, as soon as it does. */
  async function announcedPorts(run: Run): Promise<Record<string, { port: number; metricsPort: number }>> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [line] = logged(run.stderr(), 'starting the services');
      if (line) return line['ports'] as Record<string, { port: number; metricsPort: number }>;
      if (run.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`no ports announced: ${run.stderr().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('replaces a port it chose that another process takes before the service listens', async () => {
    const run = start();
    // Taken the instant after npm start chose it and before api-v2 (a second or more of booting) listens.
    const v2Metrics = (await announcedPorts(run))['api-v2']!.metricsPort;
    const holder = await holdPort(v2Metrics);
    expect(holder).toBeDefined();
    try {
      await until('the services', () => run.stdout().includes('is up at'), run);
      const [moved] = logged(run.stderr(), 'port taken as the service started: using another');
      expect(moved).toMatchObject({ service: 'api-v2', taken: v2Metrics });
      expect(moved!['port']).not.toBe(v2Metrics);
      const key = (await runKeys(env, ['create', '--plan', 'starter'])).stdout.trim();
      const cards = await fetch(`http://127.0.0.1:${gatewayPort}/v2/cards?q=dragon&limit=1`, {
        headers: { 'x-api-key': key },
      });
      expect(cards.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${String(moved!['port'])}/metrics`)).status).toBe(200);
      // kill -9 of npm start alone (not its group): its services stop too, leaving no port held.
      // (The embedded server outlives it, as after a kill during the load; the next start takes it.)
      const services = childrenOf(run.child.pid!).filter((pid) => commandOf(pid).includes('/dist/apps/'));
      expect(services).toHaveLength(5);
      process.kill(run.child.pid!, 'SIGKILL');
      expect(await run.exited).toBe('SIGKILL');
      const deadline = Date.now() + 30_000;
      while (services.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(services.filter(running).map(commandOf)).toEqual([]);
      const ports = [gatewayPort, ...['API_V1_PORT', 'API_V2_PORT', 'MCP_PORT'].map((v) => Number(env[v]))];
      expect(await Promise.all(ports.map(portOpen))).toEqual(ports.map(() => false));
    } finally {
      holder?.close();
    }
  }, 120_000);

  it('names a port given explicitly that another process takes before the service listens', async () => {
    const run = start();
    const v2Port = (await announcedPorts(run))['api-v2']!.port;
    expect(v2Port).toBe(Number(env['API_V2_PORT']));
    const holder = await holdPort(v2Port);
    expect(holder).toBeDefined();
    try {
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain(
        `port ${v2Port} (API_V2_PORT) was taken as api-v2 started: stop what listens there, or set API_V2_PORT to another port`,
      );
      // Everything stopped, the embedded server included.
      expect(await portOpen(gatewayPort)).toBe(false);
      expect(await portOpen(pgPort)).toBe(false);
    } finally {
      holder?.close();
    }
  }, 120_000);

  it('says at once that the gateway’s port is taken, before touching the database', async () => {
    const holder = await holdPort(gatewayPort);
    try {
      const run = start();
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain(`port ${gatewayPort} is taken: stop what listens there, or set PORT`);
      expect(run.stderr()).not.toContain('embedded PostgreSQL');
      expect(await portOpen(pgPort)).toBe(false);
    } finally {
      holder?.close();
    }
  });
});

/** The demo key the first start generated and kept in the data directory. */
function demoKeyOf(dataDir: string): string {
  return readFileSync(join(dataDir, 'demo-api-key'), 'utf8').trim();
}

/** `npm run keys -- <args>` (the built CLI) on this start's database. */
function runKeys(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [KEYS, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout })));
}

/** The local address each port listens on, from /proc/net/tcp (IPv4) and tcp6 (IPv6). */
function listeningAddresses(ports: number[]): string[] {
  const listening = new Map<number, string>();
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [local, , state] = line.trim().split(/\s+/).slice(1, 4);
      if (state !== '0A' || !local) continue; // 0A: LISTEN
      const [hex, port] = local.split(':');
      const address = v6
        ? hex === '0'.repeat(32)
          ? '::'
          : `ipv6:${hex}`
        : hex!
            .match(/../g)!
            .reverse()
            .map((b) => parseInt(b, 16))
            .join('.');
      listening.set(parseInt(port!, 16), address);
    }
  }
  return ports.map((p) => listening.get(p) ?? 'not listening');
}

/** Listens on the port (any address) until closed; undefined when something else holds it already. */
async function holdPort(port: number): Promise<Server | undefined> {
  const server = createServer();
  return new Promise((done) => {
    server.once('error', () => done(undefined));
    server.listen(port, () => done(server));
  });
}

async function withClient(url: string, work: (db: Client) => Promise<void>): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await work(db);
  } finally {
    await db.end();
  }
}

/** Rows where card_values differs from its definition recomputed now. */
async function cardValueDrift(db: Client): Promise<number> {
  const { def } = (await db.query(`SELECT pg_get_viewdef('card_values'::regclass) AS def`)).rows[0];
  const body = (def as string).trim().replace(/;$/, '');
  const { n } = (
    await db.query(`SELECT count(*)::int AS n FROM (
      (SELECT * FROM card_values EXCEPT ALL (${body}))
      UNION ALL ((${body}) EXCEPT ALL SELECT * FROM card_values)) AS d`)
  ).rows[0];
  return n as number;
}

describe('npm start on a terminal', () => {
  const SCRIPT = '/usr/bin/script';
  const onTerminal = existsSync(SCRIPT) ? it : it.skip;
  if (!existsSync(SCRIPT))
    process.stderr.write(`${SCRIPT} (util-linux) is missing: the terminal test is skipped\n`);

  onTerminal(
    'prints fewer than 25 lines before the banner, the load as one bar',
    async () => {
      const { dataDir, pgPort, env } = await isolatedStart('tcg-start-tty-');
      // `script` runs it on a pseudo-terminal, as a person's shell would.
      const child = spawn(SCRIPT, ['-qfec', `${process.execPath} ${START}`, '/dev/null'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise((done) => child.once('exit', done));
      try {
        const deadline = Date.now() + 120_000;
        while (!out.includes('is up at') && child.exitCode === null && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 100));
        expect(out).toContain('is up at');
        const before = out.slice(0, out.indexOf('is up at')).split('\n');
        expect(before.length).toBeLessThan(25);
        // The load: one line redrawn in place, ending at 100 %.
        const bar = before.filter((line) => line.includes('loading the sample  ['));
        expect(bar).toHaveLength(1);
        const redraws = bar[0]!.split('\r').filter((r) => r.trim() !== '');
        expect(redraws.length).toBeGreaterThan(1);
        expect(redraws[redraws.length - 1]).toMatch(/\[█{24}\]\s+100%\s+[\d,]+\/[\d,]+ variants .* done/);
        expect(out).not.toContain('"msg":"load progress"');
        expect(out).not.toContain('RouterExplorer');
      } finally {
        // Ctrl-C to npm start itself (script's child, in a session of its own), which stops the rest.
        const start = childrenOf(child.pid!)[0];
        if (start !== undefined) process.kill(start, 'SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
        if (await portOpen(pgPort)) await (await resolveDatabase(env)).stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});

/**
 * What a start of its own needs: a fresh data directory, free ports for the embedded PostgreSQL,
 * the gateway and the services, the small sample, and none of the shared servers' variables.
 */
async function isolatedStart(
  prefix: string,
): Promise<{ dataDir: string; pgPort: number; gatewayPort: number; env: NodeJS.ProcessEnv }> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dataDir, 0o755); // as root the server runs as the postgres user, which must reach it
  const pgPort = await freePort();
  const gatewayPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'DEMO_API_KEY',
    'EXPLORER_API_KEY',
    'INTERNAL_TOKEN',
    'API_V1_URL',
    'API_V2_URL',
  ])
    delete env[name];
  Object.assign(env, {
    TCG_DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: String(gatewayPort),
    API_V1_PORT: String(await freePort()),
    API_V2_PORT: String(await freePort()),
    MCP_PORT: String(await freePort()),
    SAMPLE_SIZE: 'small',
    // The worker writes the bulk files soon after the start rather than 10 s after it.
    BULK_SETTLE_MS: '300',
  });
  return { dataDir, pgPort, gatewayPort, env };
}

/** The services that logged a bulk file written (JSON lines on stdout, not a terminal). */
function bulkWriters(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => l.includes('"msg":"bulk snapshot written"'))
    .map((l) => (JSON.parse(l) as { service: string }).service);
}

/** A process's command line, from /proc ('' once it has gone). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * The fields of /proc/<pid>/stat after `pid (comm) ` — state, ppid, … — or undefined when the
 * process is gone. comm may hold spaces, so they are read after its closing parenthesis.
 */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process's niceness (stat's 19th field, the 17th after comm). */
function nicenessOf(pid: number): number {
  return Number(statFields(pid)![16]);
}

/** Whether the process runs (neither gone nor a zombie waiting for its new parent to reap it). */
function running(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(statFields(d)?.[1]) === pid)
    .map(Number);
}
