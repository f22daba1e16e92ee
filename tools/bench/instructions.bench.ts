import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openDatabase, resolveDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { type BenchCard, v1Lookup, v2Lookup } from './api-rows';
import { benchCards, ensureBenchCatalogue } from './bench-databases';
import { closeBenchHttp, get } from './bench-http';
import { makeBenchKeys, revokeBenchKeys, type RunningService, SERVICE_HOST, startService } from './services';
import { formatTable, num } from './table';

/**
 * `npm run bench:instructions`: the instructions the gateway and a service execute per card
 * lookup, counted by valgrind's callgrind. A count, not a time: on a quiet machine two runs of one
 * build agree within a few percent (see measure), where `bench:api`'s req/s drift by more than a
 * regression between two commits. The tool for an A/B or a bisection (with BENCH_APPS_DIST);
 * `bench:api` remains the measure of speed.
 */
const USAGE = `usage: npm run bench:instructions -- [--versions v1,v2] [--warmup 1500] [--requests 800]
  [--full-db tcg_bench_full]
  needs valgrind (Debian: apt-get install valgrind); BENCH_APPS_DIST measures another checkout's build`;

const VERSIONS = ['v1', 'v2'] as const;
type Version = (typeof VERSIONS)[number];
const LOOKUP: Record<Version, (card: BenchCard) => string> = { v1: v1Lookup, v2: v2Lookup };

/**
 * Keys used in turn: under callgrind a lookup takes 50 ms or more, so two stay below 1,000 a minute
 * each; few, since each is looked up again in the database once its cache entry expires.
 */
const KEYS = 2;
/**
 * The gateway's key cache at its longest: a key is looked up again when its entry expires, on a
 * request, and that lookup (5 s by default) cost the gateway more per lookup the slower the lookups
 * ran, too irregular for the idle rate to take off: 2.00 and 2.48 M instructions a v1 lookup in two
 * runs of one build with six keys.
 */
const KEY_CACHE_TTL_MS = '60000';
/** Starting a service under callgrind takes 40 to 60 s on 2 cores. */
const READY_TIMEOUT_MS = 300_000;
/** How long a requested dump may take to be written. */
const DUMP_TIMEOUT_MS = 60_000;
/** How long each process is counted idle, for what its timers cost a second (see measure). */
const IDLE_MS = 20_000;

interface Options {
  readonly versions: readonly Version[];
  readonly warmup: number;
  readonly requests: number;
  readonly fullDb: string;
}

function parseOptions(argv: readonly string[]): Options | string {
  const { options } = parseArgs(argv);
  const count = (name: string, fallback: number) => {
    const raw = options.get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    return Number.isInteger(n) && n >= 1 && n <= 20_000 ? n : undefined;
  };
  const versions = String(options.get('versions') ?? 'v1,v2').split(',');
  const warmup = count('warmup', 1_500);
  const requests = count('requests', 800);
  if (options.has('help')) return USAGE;
  if (!versions.every((v): v is Version => (VERSIONS as readonly string[]).includes(v)))
    return `--versions takes v1 and/or v2\n${USAGE}`;
  if (warmup === undefined || requests === undefined)
    return `--warmup and --requests take a whole number from 1 to 20,000\n${USAGE}`;
  return { versions, warmup, requests, fullDb: String(options.get('full-db') ?? 'tcg_bench_full') };
}

/**
 * The instructions a callgrind dump counted (its `summary:` line, or `totals:` where it has none),
 * or undefined when the text holds neither.
 */
export function instructionsOfDump(text: string): number | undefined {
  const match = /^(?:summary|totals):\s+(\d+)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** One process under callgrind: its dumps go to `<dir>/<name>.out.<n>`, its control through `<dir>/vgdb`. */
class Counted {
  private dumps = 0;

  constructor(
    private readonly dir: string,
    readonly name: string,
  ) {}

  get wrapper(): string[] {
    return [
      'valgrind',
      '--quiet',
      '--tool=callgrind',
      // Node writes machine code as it compiles JavaScript: valgrind must see it change.
      '--smc-check=all-non-file',
      `--vgdb-prefix=${join(this.dir, 'vgdb')}`,
      `--callgrind-out-file=${join(this.dir, `${this.name}.out`)}`,
    ];
  }

  /** Sets the counters to zero. */
  zero(service: RunningService): Promise<void> {
    return this.control(service, '--zero');
  }

  /** The instructions since the last zero, from a dump the process writes on request. */
  async dump(service: RunningService): Promise<number> {
    await this.control(service, '--dump');
    const file = join(this.dir, `${this.name}.out.${++this.dumps}`);
    const deadline = Date.now() + DUMP_TIMEOUT_MS;
    for (;;) {
      const counted = existsSync(file) ? instructionsOfDump(readFileSync(file, 'utf8')) : undefined;
      if (counted !== undefined) return counted;
      if (Date.now() > deadline) throw new Error(`${this.name} wrote no dump in ${DUMP_TIMEOUT_MS} ms`);
      await delay(250);
    }
  }

  private control(service: RunningService, action: string): Promise<void> {
    return new Promise((resolve, reject) =>
      execFile(
        'callgrind_control',
        [`--vgdb-prefix=${join(this.dir, 'vgdb')}`, action, String(service.pid)],
        // vgdb finds the process's pipes by the user and host names valgrind saw in its environment.
        { env: { PATH: process.env['PATH'] ?? '', HOST: SERVICE_HOST }, timeout: DUMP_TIMEOUT_MS },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }
}

/** A process's instructions per lookup, net of its idle rate over the lookups' time. */
interface Net {
  readonly perLookup: number;
  /** Instructions a second with no request (timers), taken off the count. */
  readonly idlePerSecond: number;
  /** The count before that, per lookup. */
  readonly grossPerLookup: number;
}

interface Measured {
  readonly version: Version;
  readonly gateway: Net;
  readonly service: Net;
  readonly failures: number;
}

/** What `lookups` counted over `seconds` cost each, less what the process spends idle in that time. */
export function netPerLookup(counted: number, lookups: number, seconds: number, idlePerSecond: number): Net {
  return {
    perLookup: (counted - idlePerSecond * seconds) / lookups,
    idlePerSecond,
    grossPerLookup: counted / lookups,
  };
}

/** Sends the lookups one at a time, in order; returns how many answered other than 200. */
async function lookUp(gateway: string, paths: readonly string[], keys: readonly string[]): Promise<number> {
  let failures = 0;
  for (let i = 0; i < paths.length; i++) {
    const res = await get(`${gateway}${paths[i]}`, { 'x-api-key': keys[i % keys.length]! });
    if (res.status !== 200) failures += 1;
  }
  return failures;
}

/**
 * The gateway and `api-<version>` under callgrind (the other service runs as usual), each with
 * `--single-threaded` so that V8 compiles on the counted thread, not on helpers whose share would
 * vary, and `--predictable-gc-schedule`, so that its collections do not follow the clock (two runs
 * of v2 agreed within 0.2% in the gateway and 2% in api-v2 with it; without it, runs of one build
 * spread by up to 16%). Then the warm-up lookups, the counters zeroed, the measured lookups, a
 * dump. Timers (the limits' sweeper, the legacy keys' refresh, pool keep-alives) run by the
 * clock, and under callgrind a lookup takes 50 to 150 ms depending on what else the machine runs.
 * So each process is also counted idle for IDLE_MS, and that rate, over the lookups' time, is taken
 * off their count.
 */
async function measure(
  version: Version,
  catalogueUrl: string,
  dir: string,
  paths: { warmup: string[]; measured: string[] },
  keys: readonly string[],
): Promise<Measured> {
  const env = {
    DATABASE_URL: catalogueUrl,
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    DATABASE_POOL_SIZE: '10',
  };
  const gatewayCount = new Counted(dir, `${version}-gateway`);
  const serviceCount = new Counted(dir, `${version}-api-${version}`);
  const counted = (c: Counted) => ({
    wrapper: c.wrapper,
    nodeFlags: ['--single-threaded', '--predictable-gc-schedule'],
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  const started: RunningService[] = [];
  try {
    const v1 = await startService('api-v1', env, version === 'v1' ? counted(serviceCount) : {});
    started.push(v1);
    const v2 = await startService('api-v2', env, version === 'v2' ? counted(serviceCount) : {});
    started.push(v2);
    const gateway = await startService(
      'api-gateway',
      {
        ...env,
        API_V1_URL: v1.url,
        API_V2_URL: v2.url,
        KEY_CACHE_TTL_MS,
        ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
      },
      counted(gatewayCount),
    );
    started.push(gateway);
    const service = version === 'v1' ? v1 : v2;
    log('info', 'warming up', { version, lookups: paths.warmup.length });
    await lookUp(gateway.url, paths.warmup, keys);
    const zero = () => Promise.all([gatewayCount.zero(gateway), serviceCount.zero(service)]);
    const dump = () => Promise.all([gatewayCount.dump(gateway), serviceCount.dump(service)]);
    log('info', 'counting idle', { version, seconds: IDLE_MS / 1000 });
    await zero();
    let since = performance.now();
    await delay(IDLE_MS);
    const [gatewayIdle, serviceIdle] = await dump();
    const idleSeconds = (performance.now() - since) / 1000;
    log('info', 'counting', { version, lookups: paths.measured.length });
    await zero();
    since = performance.now();
    const failures = await lookUp(gateway.url, paths.measured, keys);
    const [gatewayCounted, serviceCounted] = await dump();
    const seconds = (performance.now() - since) / 1000;
    const n = paths.measured.length;
    return {
      version,
      gateway: netPerLookup(gatewayCounted, n, seconds, gatewayIdle / idleSeconds),
      service: netPerLookup(serviceCounted, n, seconds, serviceIdle / idleSeconds),
      failures,
    };
  } finally {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  if (typeof o === 'string') {
    process.stderr.write(`${o}\n`);
    return o === USAGE ? 0 : 2;
  }
  let valgrind: string;
  try {
    valgrind = execFileSync('valgrind', ['--version']).toString().trim();
  } catch {
    log('error', 'valgrind is not installed: this bench counts instructions with it', {
      hint: 'apt-get install valgrind',
    });
    return 2;
  }
  const server = await resolveDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
  const label = `bench-instructions-${randomBytes(4).toString('hex')}`;
  const { url } = await ensureBenchCatalogue(server.url, o.fullDb, 'full');
  const ds = await openDatabase(url, 2);
  try {
    const cards = await benchCards(ds);
    if (cards.length < o.warmup + o.requests)
      throw new Error(`${o.fullDb} has ${cards.length} cards: fewer than --warmup plus --requests`);
    const keys = await makeBenchKeys(ds, url, label, KEYS);
    const results: Measured[] = [];
    for (const version of o.versions) {
      // Distinct cards for the warm-up and the count: none of the counted lookups is in a cache.
      const paths = cards.map(LOOKUP[version]);
      const measured = {
        warmup: paths.slice(0, o.warmup),
        measured: paths.slice(o.warmup, o.warmup + o.requests),
      };
      results.push(await measure(version, url, dir, measured, keys));
    }
    const cells = (net: Net) => [
      num(net.perLookup / 1e6, 3),
      num(net.grossPerLookup / 1e6, 3),
      num(net.idlePerSecond / 1e6, 2),
    ];
    const rows = results.flatMap((r) => [
      [`${r.version} lookup`, 'api-gateway', ...cells(r.gateway), ''],
      [`${r.version} lookup`, `api-${r.version}`, ...cells(r.service), ''],
      [
        `${r.version} lookup`,
        'both',
        num((r.gateway.perLookup + r.service.perLookup) / 1e6, 3),
        num((r.gateway.grossPerLookup + r.service.grossPerLookup) / 1e6, 3),
        '',
        r.failures === 0 ? '' : `${r.failures} non-200`,
      ],
    ]);
    const header = ['row', 'process', 'M instr. / lookup', 'before idle off', 'M instr. / s idle', 'note'];
    process.stdout.write(
      `bench:instructions  ${valgrind}  node ${process.version}  ${o.fullDb} (${num(cards.length)} cards)\n` +
        `${num(o.warmup)} warm-up and ${num(o.requests)} counted lookups of distinct random cards, one at a time, through the gateway\n\n` +
        `${formatTable(header, rows, [0, 1, 5])}\n` +
        'M instr. / lookup: the count over the lookups, less the idle rate over their time, per lookup\n\n' +
        `${JSON.stringify({ bench: 'instructions', valgrind, node: process.version, database: o.fullDb, warmup: o.warmup, requests: o.requests, results })}\n`,
    );
    return results.some((r) => r.failures > 0) ? 1 : 0;
  } finally {
    await revokeBenchKeys(ds, label).catch(() => undefined);
    await ds.destroy();
    closeBenchHttp();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) runTool('bench:instructions', main);
