import { execFileSync, spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { openDatabase, resolveDatabase } from '../common/database';
import { REPO_ROOT } from '../common/files';
import { log, parseArgs } from '../common/log';
import {
  type BenchCard,
  type BenchSet,
  type CatalogueName,
  floorSampleCards,
  type LoadRow,
  medianIndex,
  type Requests,
  ROW_NAMES,
  type RowCatalogue,
  type RowContext,
  type RowSpec,
  type SameBytesFloor,
  SEED,
  selectedRows,
  SLOW_UPSTREAM_MS,
  type Upstream,
  v1Lookup,
  v2Lookup,
  type TaskRow,
  type WalkRow,
} from './api-rows';
import { benchCards, databaseUrl, ensureBenchCatalogue } from './bench-databases';
import { cacheCounters, closeBenchHttp, get, p95Bound, pool, routeHistogram } from './bench-http';
import { CpuAccounting } from './cpu-time';
import { FLOOR_PATH } from './floor-server';
import { LoadGenerator } from './load-client';
import type { LoadResult, LoadScenario } from './load-generator';
import { printReport, type ReportInput, type Row } from './report';
import {
  makeBenchKeys,
  revokeBenchKeys,
  RunningService,
  residentBytes,
  startProcess,
  startService,
} from './services';
import { formatTable, ms, num, ratio } from './table';

/**
 * `npm run bench:api`: the speed of the API through the gateway on the `full` catalogue, every row
 * also a ratio to floors that send the same bytes, measured in the same run (issue 10). The rows
 * are the table of api-rows.ts; this file starts what they need, measures them in order and
 * reports. The load comes from a process of its own (load-generator.ts); floors and services are
 * processes too, so this one only orchestrates. See tools/bench/README.md for the rows.
 */
const USAGE = `usage: npm run bench:api -- [--duration 8] [--connections 32] [--warmup 2]
  [--rows <comma list>] [--full-db tcg_bench_full] [--small-db tcg_bench_small]
  [--catalogue-db <database>]  measure that database's catalogue as it is (a feed-synced one,
                               bench:marketplace's) in place of the full sample
  [--during '<shell command>']  measure the rows again while the command runs (batch work: a sync,
                               the worker's generation); BENCH_DATABASE_URL names the measured database
rows: ${ROW_NAMES.join(', ')} (the node:http and Nest floors always run)`;

const KEYS = 300;
const FLOOR_SCRIPT = join(REPO_ROOT, 'dist/tools/bench/floor-server.js');

interface Options {
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly rows: ReadonlySet<string>;
  readonly fullDb: string;
  readonly smallDb: string;
  /** A database whose catalogue (not a sample's) the full-catalogue rows measure as it is. */
  readonly catalogueDb: string | undefined;
  /** A shell command the rows are measured again beside (after measuring them without it). */
  readonly during: string | undefined;
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
  const rows = new Set(typeof rowsText === 'string' ? rowsText.split(',').map((r) => r.trim()) : ROW_NAMES);
  for (const r of rows) if (!ROW_NAMES.includes(r)) throw new Error(`unknown row '${r}'\n${USAGE}`);
  return {
    duration: number('duration', 8),
    warmup: number('warmup', 2),
    connections: Math.round(number('connections', 32)),
    rows,
    fullDb: text('full-db', 'tcg_bench_full'),
    smallDb: text('small-db', 'tcg_bench_small'),
    catalogueDb:
      typeof options.get('catalogue-db') === 'string' ? String(options.get('catalogue-db')) : undefined,
    during: typeof options.get('during') === 'string' ? String(options.get('during')) : undefined,
  };
}

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

/**
 * What the run must undo (processes, the bench keys, the scratch directory), in reverse order,
 * once, whoever asks first: a signal, or the run's end, which a signal can also cause (the queries
 * under way fail) and must then not exit before the keys are revoked.
 */
class Cleanups {
  private readonly steps: (() => Promise<unknown>)[] = [];
  private cleaning: Promise<void> | undefined;

  push(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }

  run(): Promise<void> {
    return (this.cleaning ??= (async () => {
      for (const step of this.steps.splice(0).reverse()) await step().catch(() => undefined);
    })());
  }
}

let interrupted = false;

/** Cleans up and exits on SIGINT and SIGTERM; returns what removes the handlers. */
function cleanUpOnSignals(cleanups: Cleanups): () => void {
  const onSignal = () => {
    interrupted = true;
    log('warn', 'interrupted: stopping the processes and revoking the bench keys');
    void cleanups.run().finally(() => process.exit(130));
  };
  // A reader that goes away (`| head`) must not kill the run before the cleanup: writes to a
  // closed stdout fail with EPIPE, which would otherwise be an uncaught error.
  process.stdout.on('error', () => undefined);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
}

interface Catalogue {
  readonly url: string;
  readonly ds: DataSource;
  readonly label: string;
  readonly keys: string[];
  /** Every card, in a fixed random order: for Zipf, the first is the most popular. */
  readonly cards: BenchCard[];
}

/** A catalogue with KEYS enterprise keys labelled `label`, revoked by the cleanup. */
async function openCatalogue(url: string, label: string, cleanups: Cleanups): Promise<Catalogue> {
  const ds = await openDatabase(url, 4);
  cleanups.push(async () => {
    await revokeBenchKeys(ds, label);
    await ds.destroy();
  });
  const keys = await makeBenchKeys(ds, url, label, KEYS);
  const cards = await benchCards(ds);
  if (cards.length === 0) throw new Error(`${url} has no cards`);
  await prewarm(ds);
  return { url, ds, label, keys, cards };
}

/**
 * Reads every relation of the catalogue, TOAST included, into the operating system's cache
 * (pg_prewarm's `read` mode), as a server that has been serving holds its working set: a database
 * just loaded sits in the cache, one synced days ago (bench:marketplace's, 8.6 GB) may not, and
 * rows measured on it then measured the disk (v1 batch: 503s, 4 s statements). Skipped, and said,
 * where the server has no pg_prewarm (the embedded PostgreSQL).
 */
async function prewarm(ds: DataSource): Promise<void> {
  const started = performance.now();
  try {
    await ds.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  } catch (error) {
    log('warn', 'no pg_prewarm: the catalogue is measured from whatever the cache holds', {
      error: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  const [{ blocks }]: { blocks: string }[] = await ds.query(`
    WITH own AS (SELECT oid, reltoastrelid FROM pg_class
                 WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'm', 'i')),
    toast AS (SELECT reltoastrelid AS oid FROM own WHERE reltoastrelid <> 0),
    relations AS (SELECT oid FROM own UNION ALL SELECT oid FROM toast
                  UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM toast))
    SELECT coalesce(sum(pg_prewarm(oid, 'read')), 0)::bigint AS blocks FROM relations`);
  log('info', 'catalogue read into the cache', {
    gigabytes: Math.round((Number(blocks) * 8192) / 1e7) / 100,
    seconds: Math.round(performance.now() - started) / 1000,
  });
}

/** `--catalogue-db`: a database measured as it is, named as the bench databases are. */
function existingDatabase(serverUrl: string, database: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database))
    throw new Error(`--catalogue-db takes a lower-case identifier (got '${database}')`);
  return databaseUrl(serverUrl, database);
}

/** The catalogues the rows measure: `full` always, `small` when a selected row asks for it. */
async function openCatalogues(o: Options, rows: readonly RowSpec[], cleanups: Cleanups) {
  const server = await resolveDatabase();
  cleanups.push(() => server.stop());
  const fullDb = o.catalogueDb
    ? { url: existingDatabase(server.url, o.catalogueDb), size: o.catalogueDb }
    : await ensureBenchCatalogue(server.url, o.fullDb, 'full');
  const smallDb = rows.some((r) => r.catalogue === 'small')
    ? await ensureBenchCatalogue(server.url, o.smallDb, 'small')
    : undefined;
  const label = `bench-api-${randomBytes(4).toString('hex')}`;
  const full = await openCatalogue(fullDb.url, label, cleanups);
  const small = smallDb ? await openCatalogue(smallDb.url, label, cleanups) : undefined;
  return { full, small, fullSize: fullDb.size };
}

interface Stack {
  readonly v1: RunningService;
  readonly v2: RunningService;
  readonly gateway: RunningService;
}

/** What every process the bench starts shares. */
interface Shared {
  readonly token: string;
  readonly redis: string | undefined;
  readonly cleanups: Cleanups;
}

/** api-v1, api-v2 and the gateway in front of them on one catalogue. */
async function startStack(url: string, s: Shared, env: Record<string, string> = {}): Promise<Stack> {
  const common = { DATABASE_URL: url, INTERNAL_TOKEN: s.token, DATABASE_POOL_SIZE: '10', ...env };
  const v1 = await startService('api-v1', common);
  s.cleanups.push(v1.stop);
  const v2 = await startService('api-v2', common);
  s.cleanups.push(v2.stop);
  const gateway = await startService('api-gateway', {
    ...common,
    API_V1_URL: v1.url,
    API_V2_URL: v2.url,
    ...(s.redis ? { REDIS_URL: s.redis } : {}),
  });
  s.cleanups.push(gateway.stop);
  return { v1, v2, gateway };
}

/** A floor-server.ts process, stopped by the cleanup. */
async function startFloor(name: string, args: string[], s: Shared): Promise<RunningService> {
  const p = await startProcess(name, FLOOR_SCRIPT, args, {}, FLOOR_PATH);
  s.cleanups.push(p.stop);
  return p;
}

/**
 * The lookup floors' processes (raw node:http and Nest, sending `bodyFile`) and those the selected
 * rows need: the two-hop forwarder, the slow raw floor, the real gateway in front of them.
 */
async function startUpstreams(
  needs: ReadonlySet<Upstream>,
  bodyFile: string,
  fullUrl: string,
  s: Shared,
): Promise<Partial<Record<Upstream, RunningService>>> {
  const raw = await startFloor('floor-node', ['--mode', 'raw', '--body', bodyFile], s);
  const nest = await startFloor('floor-nest', ['--mode', 'nest', '--body', bodyFile], s);
  const forward = needs.has('forward')
    ? await startFloor('floor-forward', ['--mode', 'forward', '--upstream', nest.url], s)
    : undefined;
  const slowArgs = ['--mode', 'raw', '--body', bodyFile, '--delay-ms', String(SLOW_UPSTREAM_MS)];
  const slow = needs.has('slow') ? await startFloor('floor-slow', slowArgs, s) : undefined;
  const hop = needs.has('hop')
    ? await startService('api-gateway', {
        DATABASE_URL: fullUrl,
        INTERNAL_TOKEN: s.token,
        API_V1_URL: nest.url,
        API_V2_URL: slow?.url ?? nest.url,
        ...(s.redis ? { REDIS_URL: s.redis } : {}),
      })
    : undefined;
  if (hop) s.cleanups.push(hop.stop);
  return { raw, nest, forward, slow, hop };
}

/** The processes whose CPU each row reports, under the names the report (and its JSON) uses. */
function trackCpu(
  stacks: Partial<Record<CatalogueName, Stack>>,
  upstreams: Partial<Record<Upstream, RunningService>>,
  generator: LoadGenerator,
): CpuAccounting {
  const cpu = new CpuAccounting();
  for (const [suffix, s] of [
    ['', stacks.full],
    [' (small)', stacks.small],
  ] as const)
    if (s) for (const service of [s.gateway, s.v1, s.v2]) cpu.track(`${service.name}${suffix}`, service.pid);
  const names: [Upstream, string][] = [
    ['raw', 'floor-node'],
    ['nest', 'floor-nest'],
    ['slow', 'floor-slow'],
    ['forward', 'floor-forward'],
    ['hop', 'api-gateway (hop)'],
  ];
  for (const [upstream, name] of names) {
    const p = upstreams[upstream];
    if (p) cpu.track(name, p.pid);
  }
  cpu.track('load generator', generator.pid);
  return cpu;
}

/** The bodies of GETs of `paths` through a catalogue's gateway, each checked for a 200. */
const bodiesThrough = (cat: RowCatalogue) => (paths: readonly string[]) =>
  pool(paths, 4, async (path) => {
    const res = await get(`${cat.gateway}${path}`, { 'x-api-key': cat.keys[0]! });
    if (res.status !== 200) throw new Error(`sample GET ${path} answered ${res.status}`);
    return res.body;
  });

/**
 * The floors' bytes: the median-sized v1 lookup of a spread of cards, fetched without
 * compression, written to `dir`.
 */
async function floorBytes(full: RowCatalogue, dir: string) {
  const cards = floorSampleCards(full.cards);
  const bodies = await bodiesThrough(full)(cards.map(v1Lookup));
  const at = medianIndex(bodies);
  const median = { card: cards[at]!, body: bodies[at]!, file: join(dir, 'sample.json') };
  writeFileSync(median.file, median.body);
  log('info', 'floor bytes: the median v1 lookup', { cardId: median.card.id, bytes: median.body.length });
  return median;
}

/** Everything the rows run against. */
interface Bench {
  readonly o: Options;
  readonly shared: Shared;
  readonly dir: string;
  readonly catalogues: Partial<Record<CatalogueName, Catalogue>>;
  readonly stacks: Partial<Record<CatalogueName, Stack>>;
  readonly upstreams: Partial<Record<Upstream, RunningService>>;
  readonly generator: LoadGenerator;
  readonly cpu: CpuAccounting;
  readonly context: RowContext;
  readonly fullSize: string;
  readonly floorBody: { readonly card: BenchCard; readonly body: Buffer };
}

/** The catalogues with their services and keys, the floors, the load generator. */
async function setUp(o: Options, rows: readonly RowSpec[], cleanups: Cleanups): Promise<Bench> {
  const { full, small, fullSize } = await openCatalogues(o, rows, cleanups);
  const shared: Shared = {
    token: randomBytes(24).toString('base64url'),
    redis: process.env['REDIS_URL'],
    cleanups,
  };
  log('info', 'starting the services', { full: o.fullDb, small: small ? o.smallDb : null });
  const stacks: Partial<Record<CatalogueName, Stack>> = { full: await startStack(full.url, shared) };
  // Without a response cache: its 976 cards would all be cached after the warm-up, while the full
  // catalogue's are nearly all misses, so the comparison would measure the cache, not whether
  // a lookup's cost grows with the catalogue.
  if (small) stacks.small = await startStack(small.url, shared, { RESPONSE_CACHE_MAX_BYTES: '0' });
  const views: Partial<Record<CatalogueName, RowCatalogue>> = {};
  for (const [name, cat] of [['full', full] as const, ['small', small] as const])
    if (cat) views[name] = { cards: cat.cards, keys: cat.keys, gateway: stacks[name]!.gateway.url };
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const floorBody = await floorBytes(views.full!, dir);
  const needs = new Set(rows.flatMap((r) => r.needs ?? []));
  const upstreams = await startUpstreams(needs, floorBody.file, full.url, shared);
  const generator = LoadGenerator.start();
  cleanups.push(() => generator.stop());
  const cpu = trackCpu(stacks, upstreams, generator);
  const context = rowContext(views, upstreams, full.ds, full.url);
  return {
    o,
    shared,
    dir,
    catalogues: { full, small },
    stacks,
    upstreams,
    generator,
    cpu,
    context,
    fullSize,
    floorBody,
  };
}

/** What the rows build their requests from: the catalogues, the floors' origins, samples, sets. */
function rowContext(
  views: Partial<Record<CatalogueName, RowCatalogue>>,
  upstreams: Partial<Record<Upstream, RunningService>>,
  ds: DataSource,
  databaseUrl: string,
): RowContext {
  let sets: Promise<BenchSet[]> | undefined;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`no ${what}: no selected row asked for it`);
    return value;
  };
  return {
    full: views.full!,
    catalogue: (name) => need(views[name], `${name} catalogue`),
    upstream: (name) => need(upstreams[name], `${name} upstream`).url,
    bodiesOf: bodiesThrough(views.full!),
    databaseUrl,
    sets: () =>
      (sets ??= ds.query(
        `SELECT s.id, count(*)::int AS cards FROM sets s JOIN cards c ON c.set_uuid = s.uuid GROUP BY s.id ORDER BY s.id`,
      )),
  };
}

/** Measures the rows of the table in order, each floor of their own bytes just before its first. */
class RowRunner {
  readonly rows: Row[] = [];
  private seed = SEED;
  private readonly floors = new Set<string>();

  /** `sameBytesFloors: false`: the rows only (a second pass, whose floors the first measured). */
  constructor(
    private readonly b: Bench,
    private readonly sameBytesFloors = true,
  ) {}

  async run(spec: RowSpec): Promise<void> {
    if (spec.kind === 'walk') await this.walk(spec);
    else if (spec.kind === 'task') await this.task(spec);
    else await this.load(spec);
  }

  private async task(spec: TaskRow): Promise<void> {
    log('info', 'measuring', { row: spec.id });
    const { p50, note } = await spec.run(this.b.context);
    this.rows.push({ id: spec.id, label: spec.label, p50, note });
  }

  private async load(spec: LoadRow): Promise<void> {
    const requests = await spec.requests(this.b.context);
    if (!requests) {
      log('info', `${spec.unavailable?.why ?? 'nothing to request'}: row not measured`, { row: spec.id });
      this.rows.push({ id: spec.id, label: spec.label, note: spec.unavailable?.note });
      return;
    }
    const connections = spec.connections ?? this.b.o.connections;
    const floor =
      spec.floor && this.sameBytesFloors ? await this.floor(spec.floor, requests, connections) : undefined;
    const service = spec.cache ? this.b.stacks[spec.catalogue ?? 'full']![spec.cache] : undefined;
    const routed = spec.serverRoute && this.b.stacks[spec.catalogue ?? 'full']![spec.serverRoute.service];
    const histogram = () => (routed ? routeHistogram(routed, spec.serverRoute!.route) : undefined);
    const m = await this.measure(spec.id, spec.label, { ...requests, connections }, service, histogram);
    let note = typeof spec.note === 'function' ? spec.note({ requests, result: m.result }) : spec.note;
    if (m.serverP95 !== undefined)
      note = `${note ?? ''}; server-side p95 ≤ ${m.serverP95} ms (${spec.serverRoute!.route} histogram)`;
    this.rows.push({
      ...m.row,
      note,
      floor,
      ...(m.serverP95 !== undefined ? { serverP95: m.serverP95 } : {}),
    });
  }

  /** The floor of a row's bytes, measured now with the row's connections and request bodies. */
  private async floor(floor: SameBytesFloor, requests: Requests, connections: number): Promise<string> {
    if (this.floors.has(floor.id)) return floor.id;
    this.floors.add(floor.id);
    const body = await floor.body(this.b.context, requests);
    const file = join(this.b.dir, `${floor.id}.json`);
    writeFileSync(file, body);
    const server = await startFloor(floor.id, ['--mode', 'nest', '--body', file], this.b.shared);
    this.b.cpu.track(floor.id, server.pid);
    const { method, batch } = requests;
    const m = await this.measure(floor.id, `floor: Nest on Express, ${floor.what}`, {
      url: server.url,
      paths: [FLOOR_PATH],
      distribution: 'cycle',
      connections,
      ...(method ? { method } : {}),
      ...(batch ? { batch } : {}),
    });
    this.rows.push({ ...m.row, note: `${num(body.length)} B, the median ${floor.what}` });
    return floor.id;
  }

  /**
   * `--warmup` seconds of the scenario, then `--duration` seconds measured, with the CPU of every
   * tracked process and, for a row served by `service`, its response cache's hit ratio.
   */
  private async measure(
    id: string,
    label: string,
    scenario: Omit<LoadScenario, 'kind' | 'duration' | 'seed'>,
    service?: RunningService,
    histogram?: () => Promise<Map<number, number>> | undefined,
  ): Promise<{ row: Row; result: LoadResult; serverP95?: number }> {
    const { generator, cpu } = this.b;
    const { warmup, duration } = this.b.o;
    log('info', 'measuring', { row: id, connections: scenario.connections, seconds: warmup + duration });
    const rowSeed = (this.seed += 7919);
    await generator.run({ ...scenario, kind: 'load', duration: warmup, seed: rowSeed + 1 });
    const before = service ? await cacheCounters(service) : undefined;
    const histogramBefore = await histogram?.();
    const cpuBefore = cpu.snapshot();
    const result = await generator.run({ ...scenario, kind: 'load', duration, seed: rowSeed });
    const cpuAfter = cpu.snapshot();
    const histogramAfter = await histogram?.();
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
    };
    const serverP95 =
      histogramBefore && histogramAfter ? p95Bound(histogramBefore, histogramAfter) : undefined;
    return { row, result, ...(serverP95 !== undefined ? { serverP95 } : {}) };
  }

  private async walk(spec: WalkRow): Promise<void> {
    const { set, requests } = await spec.walk(this.b.context);
    log('info', 'measuring', { row: spec.id, set: set.id, cards: set.cards, walks: spec.walks });
    await this.b.generator.run({ kind: 'walk', ...requests, walks: 1 });
    const w = await this.b.generator.run({ kind: 'walk', ...requests, walks: spec.walks });
    this.rows.push({
      id: spec.id,
      label: spec.label,
      connections: 1,
      p50: w.p50,
      non2xx: w.failures,
      pages: w.pages,
      statuses: w.statuses,
      note: spec.note(set, w),
    });
  }

  /**
   * The small stack gets as warm (JIT, pools, caches) as the full one, which has served every row
   * before: v1 and v2 lookups for as long as a row each.
   */
  async warmSmall(): Promise<void> {
    const { warmup, duration, connections } = this.b.o;
    const small = this.b.context.catalogue('small');
    log('info', 'warming the small stack', { seconds: 2 * (warmup + duration) });
    for (const lookup of [v1Lookup, v2Lookup])
      await this.b.generator.run({
        kind: 'load',
        url: small.gateway,
        paths: small.cards.map(lookup),
        distribution: 'uniform',
        seed: SEED - 1,
        keys: small.keys,
        connections,
        duration: warmup + duration,
      });
  }
}

/** Every selected row in the table's order; the small stack warmed before the first selection that uses it. */
async function measureRows(
  b: Bench,
  rows: readonly RowSpec[],
  sameBytesFloors = true,
  /** Rewrites each row as soon as it is measured (`--during` notes the command's state then). */
  onRow: (row: Row) => Row = (row) => row,
): Promise<Row[]> {
  const runner = new RowRunner(b, sameBytesFloors);
  const onSmall = new Set(rows.filter((r) => r.catalogue === 'small').map((r) => r.select));
  let warmed = false;
  for (const spec of rows) {
    if (!warmed && onSmall.has(spec.select)) {
      await runner.warmSmall();
      warmed = true;
    }
    const from = runner.rows.length;
    await runner.run(spec);
    for (let at = from; at < runner.rows.length; at++) runner.rows[at] = onRow(runner.rows[at]!);
  }
  return runner.rows;
}

/** How long the `--during` command runs before the rows are measured again beside it. */
const DURING_LEAD_MS = 5_000;

/**
 * The rows measured again while `command` runs (`sh -c`, its own process group, its output
 * passed through, BENCH_DATABASE_URL set to the measured database); each row notes whether the
 * command was still running when it ended. The command is stopped (SIGINT, then SIGKILL after
 * 10 s) once the rows are done, if it has not ended by itself.
 */
async function measureDuring(
  b: Bench,
  rows: readonly RowSpec[],
  command: string,
): Promise<{ rows: Row[]; exitCode: number | null }> {
  log('info', 'starting the --during command', { command });
  const child = spawn('sh', ['-c', command], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BENCH_DATABASE_URL: b.context.databaseUrl },
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : null);
      resolve();
    }),
  );
  const stop = async () => {
    if (exitCode !== undefined) return;
    process.kill(-child.pid!, 'SIGINT');
    const timer = setTimeout(() => exitCode === undefined && process.kill(-child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  b.shared.cleanups.push(stop);
  await Promise.race([exited, delay(DURING_LEAD_MS).then(() => undefined)]);
  const measured = await measureRows(b, rows, false, (row) =>
    exitCode === undefined ? row : { ...row, note: `${row.note ?? ''} (the command had ended)` },
  );
  const endedWith = exitCode ?? null;
  await stop();
  return { rows: measured, exitCode: endedWith };
}

/** Each row's throughput and median beside the command against the same row without it. */
function printDuring(
  quiet: readonly Row[],
  during: readonly Row[],
  command: string,
  exitCode: number | null,
): void {
  const byId = new Map(quiet.map((r) => [r.id, r]));
  const cells = during.map((d) => {
    const q = byId.get(d.id);
    return [
      d.label,
      num(q?.rps),
      num(d.rps),
      ratio(d.rps, q?.rps),
      ms(q?.p50),
      ms(d.p50),
      num((d.non2xx ?? 0) + (d.errors ?? 0)),
      d.note ?? '',
    ];
  });
  const lines = [
    '',
    `beside: ${command}${exitCode === null ? '' : ` (it ended with code ${exitCode} before the rows were done)`}`,
    formatTable(
      ['row', 'req/s quiet', 'req/s beside', 'beside/quiet', 'p50 quiet', 'p50 beside', 'failed', 'note'],
      cells,
      [0, 7],
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`${JSON.stringify({ during: { command, exitCode, rows: during } })}\n`);
}

/** The machine's other load can change during the run: the Nest floor again, to show the drift. */
function measureNestAgain(b: Bench): Promise<LoadResult> {
  const { connections, duration } = b.o;
  log('info', 'measuring', { row: 'floor-nest (again)', connections, seconds: duration });
  return b.generator.run({
    kind: 'load',
    url: b.upstreams.nest!.url,
    paths: [FLOOR_PATH],
    distribution: 'cycle',
    seed: SEED,
    connections,
    duration,
  });
}

/** The rows and what the report's summary lines read from them. */
function reportInput(
  b: Bench,
  rows: Row[],
  nestAgain: LoadResult,
  header: Pick<ReportInput['header'], 'git' | 'loadBefore'>,
): ReportInput {
  const byId = (id: string) => rows.find((r) => r.id === id);
  const versions = ['v1', 'v2'] as const;
  /** The v1 and v2 rows of ids `<version><suffix>` that ran. */
  const pairs = (suffix: string) => {
    const out: Partial<Record<'v1' | 'v2', Row>> = {};
    for (const v of versions) {
      const row = byId(`${v}${suffix}`);
      if (row) out[v] = row;
    }
    return out;
  };
  const fullStack = b.stacks.full!;
  const { o } = b;
  return {
    rows,
    floorNest: byId('floor-nest')!,
    floorNode: byId('floor-node')!,
    uniform: pairs('-uniform'),
    compressed: pairs('-gzip'),
    hop: byId('gateway-hop'),
    twoHop: byId('two-hop'),
    nestAgain,
    smallVsFull: b.stacks.small
      ? Object.fromEntries(
          versions.map((v) => [
            v,
            { full: byId(`${v}-uniform-1conn-full`), small: byId(`${v}-uniform-1conn-small`) },
          ]),
        )
      : {},
    memory: Object.fromEntries(
      [fullStack.gateway, fullStack.v1, fullStack.v2].map((s) => [s.name, residentBytes(s.pid) ?? null]),
    ),
    header: {
      ...header,
      database: o.fullDb,
      size: b.fullSize,
      cards: b.catalogues.full!.cards.length,
      duration: o.duration,
      warmup: o.warmup,
      connections: o.connections,
      quotas: b.shared.redis ? 'redis' : 'postgres',
      floorBytes: b.floorBody.body.length,
      floorCard: b.floorBody.card.id,
    },
  };
}

async function main(): Promise<number> {
  let o: Options | undefined;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  if (!o) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const rows = selectedRows(o.rows);
  const git = gitDescription();
  // Other processes share the cores: the load average before and after says how much.
  const loadBefore = loadavg()[0]!;
  const cleanups = new Cleanups();
  const stopListening = cleanUpOnSignals(cleanups);
  try {
    const bench = await setUp(o, rows, cleanups);
    const measured = await measureRows(bench, rows);
    const nestAgain = await measureNestAgain(bench);
    printReport(reportInput(bench, measured, nestAgain, { git, loadBefore }));
    if (o.during) {
      const during = await measureDuring(bench, rows, o.during);
      printDuring(measured, during.rows, o.during, during.exitCode);
    }
    return 0;
  } finally {
    stopListening();
    closeBenchHttp();
    await cleanups.run();
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
