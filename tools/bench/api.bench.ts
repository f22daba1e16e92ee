import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { openDatabase, resolveDatabase } from '../common/database';
import { REPO_ROOT } from '../common/files';
import { log, parseArgs } from '../common/log';
import { ensureBenchCatalogue } from './bench-databases';
import { cacheCounters, closeBenchHttp, get, pool, send } from './bench-http';
import { FLOOR_PATH } from './floor-server';
import { LoadGenerator } from './load-client';
import type { LoadResult, LoadScenario, WalkResult } from './load-generator';
import { shuffled } from './sampling';
import { CpuAccounting } from './cpu-time';
import { RunningService, residentBytes, startProcess, startService } from './services';
import { printReport, type Row } from './report';
import { ms, num } from './table';

/**
 * `npm run bench:api`: the speed of the API through the gateway on the `full` catalogue, every row
 * also a ratio to floors that send the same bytes, measured in the same run (issue 10). The load
 * comes from a process of its own (load-generator.ts); floors and services are processes too, so
 * this one only orchestrates. See tools/bench/README.md for the rows.
 */
/** The slow static upstream's delay: about a v1 lookup's p50 at full under 32 connections. */
const SLOW_UPSTREAM_MS = 60;

const ALL_ROWS = [
  'gateway-hop',
  'gateway-hop-slow',
  'two-hop',
  'v1-uniform',
  'v2-uniform',
  'v1-gzip',
  'v2-gzip',
  'v1-zipf',
  'v2-zipf',
  'v1-etag',
  'v2-etag',
  'v1-search',
  'v1-batch',
  'v2-page',
  'v2-walk',
  'small-vs-full',
];

const USAGE = `usage: npm run bench:api -- [--duration 8] [--connections 32] [--warmup 2]
  [--rows <comma list>] [--full-db tcg_bench_full] [--small-db tcg_bench_small]
rows: ${ALL_ROWS.join(', ')} (the node:http and Nest floors always run)`;

/** One seed for the whole benchmark, so every run asks for the same cards in the same order. */
const SEED = 20_260_101;
const KEYS = 300;
const SEARCH_CONNECTIONS = 16;
const BATCH_CONNECTIONS = 4;
const BATCH_SIZE = 200;
const ETAG_SAMPLE = 1000;
const MEDIAN_SAMPLE = 101;
/** Answers sampled for the median of a search or a page, the bytes of their rows' floors. */
const FLOOR_SAMPLE = 21;
const WALKS = 5;
const WALK_PAGE = 100;

interface Options {
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly rows: ReadonlySet<string>;
  readonly fullDb: string;
  readonly smallDb: string;
}

/** The index of the median-sized of some bodies. */
function medianIndex(bodies: readonly Buffer[]): number {
  const bySize = bodies.map((_, i) => i).sort((a, b) => bodies[a]!.length - bodies[b]!.length);
  return bySize[Math.floor(bySize.length / 2)]!;
}

/** The median-sized of some bodies. */
function medianBody(bodies: readonly Buffer[]): Buffer {
  return bodies[medianIndex(bodies)]!;
}

function parseOptions(argv: readonly string[]): Options | undefined {
  const { options } = parseArgs(argv);
  const number = (name: string, fallback: number): number => {
    const v = options.get(name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number\n${USAGE}`);
    return n;
  };
  const text = (name: string, fallback: string): string => {
    const v = options.get(name);
    return typeof v === 'string' ? v : fallback;
  };
  if (options.has('help')) return undefined;
  const rowsText = options.get('rows');
  const rows = new Set(typeof rowsText === 'string' ? rowsText.split(',').map((r) => r.trim()) : ALL_ROWS);
  for (const r of rows) if (!ALL_ROWS.includes(r)) throw new Error(`unknown row '${r}'\n${USAGE}`);
  return {
    duration: number('duration', 8),
    warmup: number('warmup', 2),
    connections: Math.round(number('connections', 32)),
    rows,
    fullDb: text('full-db', 'tcg_bench_full'),
    smallDb: text('small-db', 'tcg_bench_small'),
  };
}

interface Catalogue {
  readonly url: string;
  readonly ds: DataSource;
  readonly label: string;
  readonly keys: string[];
  /** Every card, in a fixed random order: for Zipf, the first is the most popular. */
  readonly cards: { id: string; uuid: string; name: string }[];
}

async function openCatalogue(url: string, label: string): Promise<Catalogue> {
  const ds = await openDatabase(url, 4);
  const repo = new TypeOrmApiKeyRepository(ds);
  const keys = await Promise.all(
    Array.from({ length: KEYS }, () => repo.create('enterprise', label).then((k) => k.key)),
  );
  const rows: { id: string; uuid: string; name: string }[] = await ds.query(
    'SELECT id, uuid, name FROM cards ORDER BY uuid',
  );
  if (rows.length === 0) throw new Error(`${url} has no cards`);
  return { url, ds, label, keys, cards: shuffled(rows, SEED) };
}

const v1Lookup = (card: { id: string }) => `/v1/cards?cardId=${encodeURIComponent(card.id)}`;
const v2Lookup = (card: { uuid: string }) => `/v2/cards/${card.uuid}`;

function gitDescription(): { commit: string; dirty: number } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: REPO_ROOT })
      .toString()
      .trim();
    const status = execFileSync('git', ['status', '--porcelain', '--', 'apps', 'libs', 'tools'], {
      cwd: REPO_ROOT,
    })
      .toString()
      .split('\n')
      .filter((l) => l.trim() !== '');
    return { commit, dirty: status.length };
  } catch {
    return { commit: 'unknown', dirty: 0 };
  }
}

let interrupted = false;

async function main(): Promise<number> {
  let options: Options | undefined;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const o = options;
  const want = (id: string) => o.rows.has(id);
  const git = gitDescription();
  // Other processes share the cores: the load average before and after says how much.
  const loadBefore = loadavg()[0]!;
  const server = await resolveDatabase();
  const cleanups: (() => Promise<unknown>)[] = [];
  // One cleanup, whoever asks first: a signal's, or the run's end, which a signal can also cause
  // (the queries under way fail) and must then not exit before the keys are revoked.
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const step of cleanups.splice(0).reverse()) await step().catch(() => undefined);
    })());
  const onSignal = () => {
    interrupted = true;
    log('warn', 'interrupted: stopping the processes and revoking the bench keys');
    void cleanup().finally(() => process.exit(130));
  };
  // A reader that goes away (`| head`) must not kill the run before the cleanup: writes to a
  // closed stdout fail with EPIPE, which would otherwise be an uncaught error.
  process.stdout.on('error', () => undefined);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  cleanups.push(() => server.stop());
  try {
    const fullDb = await ensureBenchCatalogue(server.url, o.fullDb, 'full');
    const smallDb = want('small-vs-full')
      ? await ensureBenchCatalogue(server.url, o.smallDb, 'small')
      : undefined;
    const label = `bench-api-${randomBytes(4).toString('hex')}`;
    const revoke = async (c: Catalogue) => {
      await c.ds.query('UPDATE api_keys SET revoked_at = now() WHERE label = $1 AND revoked_at IS NULL', [
        c.label,
      ]);
      await c.ds.destroy();
    };
    const full = await openCatalogue(fullDb.url, label);
    cleanups.push(() => revoke(full));
    const small = smallDb ? await openCatalogue(smallDb.url, label) : undefined;
    if (small) {
      cleanups.push(() => revoke(small));
    }

    const token = randomBytes(24).toString('base64url');
    const redis = process.env['REDIS_URL'];
    const stack = async (url: string, env: Record<string, string> = {}) => {
      const common = { DATABASE_URL: url, INTERNAL_TOKEN: token, DATABASE_POOL_SIZE: '10', ...env };
      const v1 = await startService('api-v1', common);
      cleanups.push(v1.stop);
      const v2 = await startService('api-v2', common);
      cleanups.push(v2.stop);
      const gateway = await startService('api-gateway', {
        ...common,
        API_V1_URL: v1.url,
        API_V2_URL: v2.url,
        ...(redis ? { REDIS_URL: redis } : {}),
      });
      cleanups.push(gateway.stop);
      return { v1, v2, gateway };
    };
    log('info', 'starting the services', { full: o.fullDb, small: small ? o.smallDb : null });
    const fullStack = await stack(full.url);
    // Without a response cache: its 976 cards would all be cached after the warm-up, while the full
    // catalogue's are nearly all misses, so the comparison would measure the cache, not whether
    // a lookup's cost grows with the catalogue.
    const smallStack = small ? await stack(small.url, { RESPONSE_CACHE_MAX_BYTES: '0' }) : undefined;
    const cpu = new CpuAccounting();
    for (const [suffix, s] of [
      ['', fullStack],
      [' (small)', smallStack],
    ] as const)
      if (s)
        for (const service of [s.gateway, s.v1, s.v2]) cpu.track(`${service.name}${suffix}`, service.pid);

    // The floors' bytes: the median-sized v1 lookup of a spread of cards, fetched without
    // compression; from the tail of the popularity order, so that Zipf rows find these uncached.
    /** The bodies of GETs of `paths` through the gateway, each checked for a 200. */
    const bodiesOf = (paths: readonly string[]) =>
      pool(paths, 4, async (path) => {
        const res = await get(`${fullStack.gateway.url}${path}`, { 'x-api-key': full.keys[0]! });
        if (res.status !== 200) throw new Error(`sample GET ${path} answered ${res.status}`);
        return res.body;
      });
    const sampleCards = full.cards.slice(-MEDIAN_SAMPLE);
    const sampleBodies = await bodiesOf(sampleCards.map(v1Lookup));
    const at = medianIndex(sampleBodies);
    const median = { card: sampleCards[at]!, body: sampleBodies[at]! };
    const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const bodyFile = join(dir, 'sample.json');
    writeFileSync(bodyFile, median.body);
    log('info', 'floor bytes: the median v1 lookup', { cardId: median.card.id, bytes: median.body.length });

    const floorScript = join(REPO_ROOT, 'dist/tools/bench/floor-server.js');
    const floor = async (name: string, args: string[]) => {
      const p = await startProcess(name, floorScript, args, {}, FLOOR_PATH);
      cleanups.push(p.stop);
      return p;
    };
    const raw = await floor('floor-node', ['--mode', 'raw', '--body', bodyFile]);
    const nest = await floor('floor-nest', ['--mode', 'nest', '--body', bodyFile]);
    cpu.track('floor-node', raw.pid);
    cpu.track('floor-nest', nest.pid);
    const forward = want('two-hop')
      ? await floor('floor-forward', ['--mode', 'forward', '--upstream', nest.url])
      : undefined;
    // As slow as a v1 lookup under this load (its p50 at full was 60-80 ms): the gateway's v2 routes
    // go there, so one gateway measures its hop in front of a fast and of a slow upstream.
    const slow = want('gateway-hop-slow')
      ? await floor('floor-slow', [
          '--mode',
          'raw',
          '--body',
          bodyFile,
          '--delay-ms',
          String(SLOW_UPSTREAM_MS),
        ])
      : undefined;
    if (slow) cpu.track('floor-slow', slow.pid);
    const hopGateway =
      want('gateway-hop') || slow
        ? await startService('api-gateway', {
            DATABASE_URL: full.url,
            INTERNAL_TOKEN: token,
            API_V1_URL: nest.url,
            API_V2_URL: slow?.url ?? nest.url,
            ...(redis ? { REDIS_URL: redis } : {}),
          })
        : undefined;
    if (hopGateway) cleanups.push(hopGateway.stop);
    if (forward) cpu.track('floor-forward', forward.pid);
    if (hopGateway) cpu.track('api-gateway (hop)', hopGateway.pid);

    const generator = LoadGenerator.start();
    cpu.track('load generator', generator.pid);
    cleanups.push(() => generator.stop());

    const rows: Row[] = [];
    const { duration, warmup, connections } = o;
    let seed = SEED;
    type Load = Omit<LoadScenario, 'kind' | 'duration' | 'seed'>;
    const measure = async (
      id: string,
      label: string,
      scenario: Load,
      service?: RunningService,
      extra: Partial<Row> = {},
    ): Promise<Row & { result: LoadResult }> => {
      log('info', 'measuring', { row: id, connections: scenario.connections, seconds: warmup + duration });
      const rowSeed = (seed += 7919);
      await generator.run({ ...scenario, kind: 'load', duration: warmup, seed: rowSeed + 1 });
      const before = service ? await cacheCounters(service) : undefined;
      const cpuBefore = cpu.snapshot();
      const result = await generator.run({ ...scenario, kind: 'load', duration, seed: rowSeed });
      const cpuAfter = cpu.snapshot();
      const after = service ? await cacheCounters(service) : undefined;
      const looked = before && after ? after.hits - before.hits + (after.misses - before.misses) : 0;
      const row: Row = {
        id,
        label,
        connections: scenario.connections,
        rps: result.rps,
        p50: result.p50,
        p95: result.p95,
        p99: result.p99,
        non2xx: result.failures,
        errors: result.errors,
        bytesPerResponse: result.bytesPerResponse,
        statuses: result.statuses,
        ...(service
          ? { cacheHitRatio: before && after && looked > 0 ? (after.hits - before.hits) / looked : null }
          : {}),
        cpuUs: CpuAccounting.perRequest(cpuBefore, cpuAfter, result.requests),
        ...extra,
      };
      rows.push(row);
      return { ...row, result };
    };

    const keys = full.keys;
    const v1Paths = full.cards.map(v1Lookup);
    const v2Paths = full.cards.map(v2Lookup);
    const gw = fullStack.gateway.url;
    const floorNode = await measure('floor-node', 'floor: raw node:http', {
      url: raw.url,
      paths: [FLOOR_PATH],
      distribution: 'cycle',
      connections,
    });
    const floorNest = await measure('floor-nest', 'floor: Nest on Express', {
      url: nest.url,
      paths: [FLOOR_PATH],
      distribution: 'cycle',
      connections,
    });
    let twoHop: Row | undefined;
    if (forward)
      twoHop = await measure('two-hop', 'floor: two hops, Nest → Nest', {
        url: forward.url,
        paths: [FLOOR_PATH],
        distribution: 'cycle',
        connections,
      });
    let hop: Row | undefined;
    if (hopGateway && want('gateway-hop'))
      hop = await measure('gateway-hop', 'gateway hop → static upstream', {
        url: hopGateway.url,
        paths: v1Paths,
        distribution: 'uniform',
        keys,
        connections,
      });
    if (hopGateway && slow)
      await measure(
        'gateway-hop-slow',
        `gateway hop → upstream after ${SLOW_UPSTREAM_MS} ms`,
        { url: hopGateway.url, paths: v2Paths, distribution: 'uniform', keys, connections },
        undefined,
        { note: 'the same bytes; throughput capped by the delay: read its CPU line' },
      );

    /**
     * A Nest floor sending `body`, measured right before the row it is the floor of, with that
     * row's connections (and, for a POST, its request bodies): the ratios are to the Nest
     * floor with the same bytes, and a 425 KB search answer or a 2.7 MB batch costs more to send
     * than the median lookup whatever serves it. Returns the floor row's id.
     */
    const sameBytesFloor = async (
      id: string,
      what: string,
      body: Buffer,
      scenario: Omit<Load, 'url' | 'paths' | 'distribution'>,
    ): Promise<string> => {
      const file = join(dir, `${id}.json`);
      writeFileSync(file, body);
      const server = await floor(id, ['--mode', 'nest', '--body', file]);
      cpu.track(id, server.pid);
      await measure(
        id,
        `floor: Nest on Express, ${what}`,
        { ...scenario, url: server.url, paths: [FLOOR_PATH], distribution: 'cycle' },
        undefined,
        { note: `${num(body.length)} B, the median ${what}` },
      );
      return id;
    };

    const lookups = {
      v1: { paths: v1Paths, service: fullStack.v1 },
      v2: { paths: v2Paths, service: fullStack.v2 },
    } as const;
    const uniform: Partial<Record<'v1' | 'v2', Row>> = {};
    const compressed: Partial<Record<'v1' | 'v2', Row>> = {};
    // v2 answers are about two thirds of v1's: their plain rows get a floor of their own, from the
    // same cards as the lookup floor's (the tail of the popularity order).
    const lookupFloor: Record<'v1' | 'v2', string | undefined> = { v1: undefined, v2: undefined };
    for (const v of ['v1', 'v2'] as const) {
      if (v === 'v2' && ['v2-uniform', 'v2-zipf', 'v2-etag'].some(want))
        lookupFloor.v2 = await sameBytesFloor(
          'floor-v2-lookup',
          'v2 lookup',
          medianBody(await bodiesOf(sampleCards.map(v2Lookup))),
          { connections },
        );
      if (want(`${v}-uniform`))
        uniform[v] = await measure(
          `${v}-uniform`,
          `${v} lookup, uniform`,
          { url: gw, paths: lookups[v].paths, distribution: 'uniform', keys, connections },
          lookups[v].service,
          { note: `any of ${num(full.cards.length)} cards`, floor: lookupFloor[v] },
        );
    }
    for (const v of ['v1', 'v2'] as const)
      if (want(`${v}-gzip`))
        compressed[v] = await measure(
          `${v}-gzip`,
          `${v} lookup, uniform, gzip/br`,
          {
            url: gw,
            paths: lookups[v].paths,
            distribution: 'uniform',
            keys,
            connections,
            headers: { 'accept-encoding': 'gzip, br' },
          },
          lookups[v].service,
          { note: 'Accept-Encoding: gzip, br' },
        );
    for (const v of ['v1', 'v2'] as const)
      if (want(`${v}-zipf`))
        await measure(
          `${v}-zipf`,
          `${v} lookup, Zipf s=1`,
          { url: gw, paths: lookups[v].paths, distribution: 'zipf', keys, connections },
          lookups[v].service,
          { note: 'popularity over a fixed random order', floor: lookupFloor[v] },
        );
    for (const v of ['v1', 'v2'] as const) {
      if (!want(`${v}-etag`)) continue;
      const id = `${v}-etag`;
      const label = `${v} lookup, If-None-Match`;
      const sample = shuffled(lookups[v].paths, SEED + 1)
        .slice(0, ETAG_SAMPLE)
        .map((path, i) => ({ path, i }));
      const tagOf = async ({ path, i }: { path: string; i: number }) => {
        const res = await get(`${gw}${path}`, { 'x-api-key': keys[i % keys.length]! });
        const etag = res.headers['etag'];
        return res.status === 200 && typeof etag === 'string' ? { path, etag } : undefined;
      };
      const probe = await pool(sample.slice(0, 20), 4, tagOf);
      if (!probe.some(Boolean)) {
        log('info', 'no ETag on lookups: row not measured', { row: id });
        rows.push({ id, label, note: 'n/a (no ETag)' });
        continue;
      }
      const tagged = [...probe, ...(await pool(sample.slice(20), 8, tagOf))].filter(
        (t): t is { path: string; etag: string } => t !== undefined,
      );
      const r = await measure(
        id,
        label,
        {
          url: gw,
          paths: tagged.map((t) => t.path),
          pathHeaders: tagged.map((t) => ({ 'if-none-match': t.etag })),
          okStatuses: [200, 304],
          distribution: 'uniform',
          keys,
          connections,
        },
        lookups[v].service,
        // A revalidation is worth it against the lookup it saves: the floor of that lookup's bytes.
        { floor: lookupFloor[v] },
      );
      const notModified = r.result.statuses['304'] ?? 0;
      rows[rows.length - 1] = {
        ...rows[rows.length - 1]!,
        note: `${num((100 * notModified) / Math.max(1, r.result.requests), 1)}% 304 over ${num(tagged.length)} cards`,
      };
    }

    if (want('v1-search')) {
      const words = [
        ...new Set(full.cards.flatMap((c) => c.name.toLowerCase().match(/\p{L}{3,}/gu) ?? [])),
      ].sort();
      const paths = words.map((w) => `/v1/cards?q=${encodeURIComponent(w)}`);
      const floorId = await sameBytesFloor(
        'floor-search',
        'search answer',
        medianBody(await bodiesOf(shuffled(paths, SEED + 2).slice(0, FLOOR_SAMPLE))),
        { connections: SEARCH_CONNECTIONS },
      );
      await measure(
        'v1-search',
        'v1 search q=<word>',
        { url: gw, paths, distribution: 'uniform', keys, connections: SEARCH_CONNECTIONS },
        fullStack.v1,
        { note: `any of ${num(words.length)} words of card names`, floor: floorId },
      );
    }
    if (want('v1-batch')) {
      const ids = full.cards.map((c) => c.id);
      const batchBodies = await pool(
        Array.from({ length: 5 }, (_, i) => shuffled(ids, SEED + 3 + i).slice(0, BATCH_SIZE)),
        1,
        async (chosen) => {
          const res = await send(
            'POST',
            `${gw}/v1/cards?include_price_history=false`,
            { 'x-api-key': keys[0]! },
            chosen.map((cardId) => ({ cardId })),
          );
          if (res.status !== 200) throw new Error(`sample batch answered ${res.status}`);
          return res.body;
        },
      );
      const batch = { ids, size: BATCH_SIZE };
      const floorId = await sameBytesFloor('floor-batch', 'batch answer', medianBody(batchBodies), {
        method: 'POST',
        batch,
        connections: BATCH_CONNECTIONS,
      });
      await measure(
        'v1-batch',
        `v1 batch POST ${BATCH_SIZE} cards`,
        {
          url: gw,
          method: 'POST',
          paths: ['/v1/cards?include_price_history=false'],
          distribution: 'cycle',
          batch,
          keys,
          connections: BATCH_CONNECTIONS,
        },
        undefined,
        { note: 'random cards, include_price_history=false', floor: floorId },
      );
    }
    const sets: { id: string; cards: number }[] = await full.ds.query(
      `SELECT s.id, count(*)::int AS cards FROM sets s JOIN cards c ON c.set_uuid = s.uuid GROUP BY s.id ORDER BY s.id`,
    );
    if (want('v2-page')) {
      const big = sets.filter((s) => s.cards >= 20);
      const paths = big.map((s) => `/v2/cards?set=${encodeURIComponent(s.id)}&limit=20&include=periods`);
      const floorId = await sameBytesFloor(
        'floor-v2-page',
        'v2 page',
        medianBody(await bodiesOf(shuffled(paths, SEED + 4).slice(0, FLOOR_SAMPLE))),
        { connections: 1 },
      );
      await measure(
        'v2-page',
        'v2 page of 20, all periods',
        { url: gw, paths, distribution: 'uniform', keys, connections: 1 },
        undefined,
        { note: `set=<any of ${big.length}>&limit=20&include=periods`, floor: floorId },
      );
    }
    if (want('v2-walk')) {
      const largest = [...sets].sort((a, b) => b.cards - a.cards || a.id.localeCompare(b.id))[0]!;
      const firstPath = `/v2/cards?set=${encodeURIComponent(largest.id)}&limit=${WALK_PAGE}&include=periods`;
      log('info', 'measuring', { row: 'v2-walk', set: largest.id, cards: largest.cards, walks: WALKS });
      await generator.run({ kind: 'walk', url: gw, firstPath, keys, walks: 1 });
      const w: WalkResult = await generator.run({ kind: 'walk', url: gw, firstPath, keys, walks: WALKS });
      rows.push({
        id: 'v2-walk',
        label: 'v2 cursor walk, largest set',
        connections: 1,
        p50: w.p50,
        non2xx: w.failures,
        pages: w.pages,
        statuses: w.statuses,
        note: `${largest.id}: ${w.pages} pages of ${WALK_PAGE}; p50 = ms per walk (${w.walks} walks, ${ms(w.min)}-${ms(w.max)} ms)`,
      });
    }

    const smallVsFull: Record<string, { full?: Row; small?: Row }> = {};
    if (small && smallStack) {
      // The full stack has served every row above: the small one gets as warm (JIT, pools, caches)
      // before the two are compared.
      log('info', 'warming the small stack', { seconds: 2 * (warmup + duration) });
      for (const v of ['v1', 'v2'] as const)
        await generator.run({
          kind: 'load',
          url: smallStack.gateway.url,
          paths: small.cards.map(v === 'v1' ? v1Lookup : v2Lookup),
          distribution: 'uniform',
          seed: SEED - 1,
          keys: small.keys,
          connections,
          duration: warmup + duration,
        });
      for (const v of ['v1', 'v2'] as const) {
        const pair: { full?: Row; small?: Row } = {};
        for (const [name, cat, s] of [
          ['full', full, fullStack],
          ['small', small, smallStack],
        ] as const) {
          pair[name] = await measure(
            `${v}-uniform-1conn-${name}`,
            `${v} lookup, uniform, ${name}`,
            {
              url: s.gateway.url,
              paths: cat.cards.map(v === 'v1' ? v1Lookup : v2Lookup),
              distribution: 'uniform',
              keys: cat.keys,
              connections: 1,
            },
            s[v],
            { note: `1 connection, any of ${num(cat.cards.length)} cards` },
          );
        }
        smallVsFull[v] = pair;
      }
    }

    // The machine's other load can change during the run: the Nest floor again, to show the drift.
    log('info', 'measuring', { row: 'floor-nest (again)', connections, seconds: duration });
    const nestAgain = await generator.run({
      kind: 'load',
      url: nest.url,
      paths: [FLOOR_PATH],
      distribution: 'cycle',
      seed: SEED,
      connections,
      duration,
    });

    const memory = Object.fromEntries(
      [fullStack.gateway, fullStack.v1, fullStack.v2].map((s) => [s.name, residentBytes(s.pid) ?? null]),
    );

    printReport({
      rows,
      floorNest,
      floorNode,
      uniform,
      compressed,
      hop,
      twoHop,
      nestAgain,
      smallVsFull,
      memory,
      header: {
        git,
        loadBefore,
        database: o.fullDb,
        size: fullDb.size,
        cards: full.cards.length,
        duration,
        warmup,
        connections,
        quotas: redis ? 'redis' : 'postgres',
        floorBytes: median.body.length,
        floorCard: median.card.id,
      },
    });
    return 0;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    closeBenchHttp();
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (interrupted) return; // the signal's cleanup exits
    log('error', 'bench failed', { error: (error as Error).message, stack: (error as Error).stack });
    process.exit(1);
  },
);
