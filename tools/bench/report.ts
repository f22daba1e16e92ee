import { cpus, loadavg } from 'node:os';
import type { LoadResult } from './load-generator';
import { bytes, formatTable, ms, num, ratio } from './table';

/** One line of the table, and of the final JSON line. */
export interface Row {
  readonly id: string;
  readonly label: string;
  readonly connections?: number;
  readonly rps?: number;
  readonly p50?: number;
  readonly p95?: number;
  readonly p99?: number;
  readonly non2xx?: number;
  readonly errors?: number;
  readonly bytesPerResponse?: number;
  /** hits / (hits + misses) of the service's response cache during the row; null: not reported. */
  readonly cacheHitRatio?: number | null;
  /** The service's own p95 for the row's route, as its histogram's bucket bound, in ms. */
  readonly serverP95?: number;
  readonly statuses?: Record<string, number>;
  readonly note?: string;
  readonly pages?: number;
  /** Microseconds of CPU per request of each process that served the row (cpu-time.ts). */
  readonly cpuUs?: Record<string, number>;
  /**
   * The id of the Nest floor row that sends this row's bytes, which its `vs Nest` divides by:
   * undefined for the lookup floor (the median v1 lookup).
   */
  readonly floor?: string;
}

/** The processes of the gateway-hop row: the ceiling of a lookup counts all of their CPU. */
const HOP_PROCESSES = ['api-gateway (hop)', 'floor-nest', 'load generator', 'redis-server', 'postgres'];

/** What the report says besides the rows: the run's conditions and the floor's bytes. */
export interface ReportHeader {
  readonly git: { readonly commit: string; readonly dirty: number };
  readonly loadBefore: number;
  readonly database: string;
  readonly size: string;
  readonly cards: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
  readonly quotas: 'redis' | 'postgres';
  readonly floorBytes: number;
  readonly floorCard: string;
}

export interface ReportInput {
  readonly rows: readonly Row[];
  readonly floorNest: Row;
  readonly floorNode: Row;
  readonly uniform: Partial<Record<'v1' | 'v2', Row>>;
  readonly compressed: Partial<Record<'v1' | 'v2', Row>>;
  readonly hop: Row | undefined;
  readonly twoHop: Row | undefined;
  readonly nestAgain: LoadResult;
  readonly smallVsFull: Record<string, { full?: Row; small?: Row }>;
  readonly memory: Record<string, number | null>;
  readonly header: ReportHeader;
}

/**
 * Prints the run: a header, one aligned table of the rows with their ratios to the floors, the CPU
 * each process spent per request, summary lines (bytes with and without compression, the floor's
 * drift, the gateway hop, lookup ceilings, full against small, memory), then one JSON line with all
 * of it for machines.
 */
export function printReport(input: ReportInput): void {
  const floors = floorsOf(input);
  const { lines: summaryLines, summary } = summarise(input, floors);
  const lines = [
    ...headerLines(input.header),
    '',
    rowTable(input.rows, floors),
    '',
    ...LEGEND,
    '',
    ...cpuLines(input.rows),
    '',
    ...summaryLines,
    `resident memory after the run: ${Object.entries(input.memory)
      .map(([name, b]) => `${name} ${b === null ? 'n/a' : `${num(b / 1_048_576)} MB`}`)
      .join(', ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`${JSON.stringify(jsonReport(input, floors, summary))}\n`);
}

/** The floors a row's ratios divide by. */
interface Floors {
  readonly nestRps: number;
  readonly nodeRps: number;
  /** The req/s of the Nest floor a row compares with: its own bytes' floor, else the lookup floor. */
  floorRps(r: Row): number;
}

function floorsOf({ rows, floorNest, floorNode }: ReportInput): Floors {
  const nestRps = floorNest.rps!;
  return {
    nestRps,
    nodeRps: floorNode.rps!,
    floorRps: (r) => (r.floor ? rows.find((f) => f.id === r.floor)?.rps : undefined) ?? nestRps,
  };
}

function headerLines(h: ReportHeader): string[] {
  return [
    `bench:api  commit ${h.git.commit}${h.git.dirty > 0 ? ` (+${h.git.dirty} uncommitted files in apps/libs/tools)` : ''}` +
      `  node ${process.version}  ${cpus().length} cores  load average ${h.loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after`,
    `catalogue ${h.database} (${h.size}, ${num(h.cards)} cards)  ${h.duration} s per row after ${h.warmup} s warm-up` +
      `  quotas in ${h.quotas === 'redis' ? 'Redis' : 'PostgreSQL'}`,
    `floor bytes: the median v1 lookup, ${num(h.floorBytes)} B (${h.floorCard})`,
  ];
}

const COLUMNS = [
  'row',
  'conn',
  'req/s',
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'non-2xx',
  'err',
  'vs Nest',
  'vs node',
  'bytes/resp',
  'cache hit',
  'note',
];

/** One aligned line per row, the row's label and note left-aligned. */
function rowTable(rows: readonly Row[], { nodeRps, floorRps }: Floors): string {
  return formatTable(
    COLUMNS,
    rows.map((r) => [
      r.label,
      num(r.connections),
      num(r.rps, r.rps !== undefined && r.rps < 100 ? 1 : 0),
      ms(r.p50),
      ms(r.p95),
      ms(r.p99),
      num(r.non2xx),
      num(r.errors),
      ratio(r.rps, floorRps(r)),
      ratio(r.rps, nodeRps),
      bytes(r.bytesPerResponse),
      r.cacheHitRatio === undefined
        ? ''
        : r.cacheHitRatio === null
          ? 'n/a'
          : `${(100 * r.cacheHitRatio).toFixed(1)}%`,
      r.note ?? '',
    ]),
    [0, 12],
  );
}

const LEGEND = [
  'non-2xx: responses outside 2xx (in If-None-Match rows 304 is a success); err: socket errors and timeouts;',
  "vs Nest: the row's req/s over the Nest floor's with the same bytes (the floor row named in its JSON `floor`, measured",
  'just before it, else the lookup floor); vs node: over the raw node:http floor of the lookup bytes;',
  "cache hit: the service's response-cache hits / (hits + misses)",
  'during the row, from its /health (n/a: not reported); bytes/resp: read per response, status line and headers included',
];

/** Each row's CPU per request by process, for the rows that have any. */
function cpuLines(rows: readonly Row[]): string[] {
  const lines = ['CPU per request, µs, of each process that served the row (user + system, from /proc):'];
  for (const r of rows)
    if (r.cpuUs && Object.keys(r.cpuUs).length > 0)
      lines.push(
        `  ${r.label.padEnd(32)} ${Object.values(r.cpuUs)
          .reduce((a, b) => a + b, 0)
          .toLocaleString('en-US')
          .padStart(7)} in all: ${Object.entries(r.cpuUs)
          .map(([name, us]) => `${name} ${us.toLocaleString('en-US')}`)
          .join(', ')}`,
      );
  return lines;
}

type Summary = Record<string, number | null>;

const share = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? a / b : null;

/** The summary lines and their figures for the JSON line. */
function summarise(input: ReportInput, floors: Floors): { lines: string[]; summary: Summary } {
  const { uniform, compressed, hop, twoHop, nestAgain, smallVsFull } = input;
  const { nestRps } = floors;
  const lines: string[] = [];
  const summary: Summary = {};
  for (const v of ['v1', 'v2'] as const) {
    const plain = uniform[v]?.bytesPerResponse;
    const packed = compressed[v]?.bytesPerResponse;
    summary[`${v}CompressedBytesRatio`] = share(packed, plain);
    if (plain !== undefined || packed !== undefined)
      lines.push(
        `bytes on the wire per ${v} lookup (headers included): ${bytes(plain)} plain, ${bytes(packed)} with Accept-Encoding: gzip, br (${ratio(packed, plain)})`,
      );
  }
  summary['nestFloorAfterVsBefore'] = share(nestAgain.rps, nestRps);
  lines.push(
    `Nest floor again after the rows: ${num(nestAgain.rps)} req/s, p50 ${ms(nestAgain.p50)} ms (${ratio(nestAgain.rps, nestRps)} the first; ratios use the first)`,
  );
  summary['gatewayHopVsTwoHop'] = share(hop?.rps, twoHop?.rps);
  if (hop && twoHop)
    lines.push(
      `gateway hop vs two-hop floor: ${ratio(hop.rps, twoHop.rps)} req/s, p50 ${ms(hop.p50)} vs ${ms(twoHop.p50)} ms`,
    );
  lines.push(...ceilingLines(input, floors, summary));
  for (const [v, pair] of Object.entries(smallVsFull)) {
    summary[`${v}FullVsSmallP50`] = share(pair.full?.p50, pair.small?.p50);
    lines.push(
      `${v} lookup p50 at 1 connection: full ${ms(pair.full?.p50)} ms, small ${ms(pair.small?.p50)} ms (full/small ${ratio(pair.full?.p50, pair.small?.p50)})`,
    );
  }
  return { lines, summary };
}

/**
 * The most uncached lookups per second this architecture allows on this machine, from floors
 * of the same run: a gateway that costs what it costs in front of the static Nest floor (every
 * process of that row: gateway, Nest floor, Redis, load generator), plus the lookup's own
 * PostgreSQL read (the lookup row's PostgreSQL CPU, less what the hop row's spent), with every
 * core busy. A uniform row near its ceiling has little left to gain without another design.
 */
function ceilingLines({ uniform, hop }: ReportInput, { floorRps }: Floors, summary: Summary): string[] {
  const lines: string[] = [];
  if (!hop?.cpuUs) return lines;
  for (const v of ['v1', 'v2'] as const) {
    const row = uniform[v];
    if (!row?.cpuUs || row.rps === undefined) continue;
    const hopUs = HOP_PROCESSES.reduce((sum, name) => sum + (hop.cpuUs?.[name] ?? 0), 0);
    const readUs = Math.max(0, (row.cpuUs['postgres'] ?? 0) - (hop.cpuUs['postgres'] ?? 0));
    const ceiling = (cpus().length * 1e6) / (hopUs + readUs);
    summary[`${v}UniformCeilingVsNest`] = ceiling / floorRps(row);
    lines.push(
      `${v} uniform lookup ceiling from the floors: ${num(ceiling)} req/s, ${ratio(ceiling, floorRps(row))} its Nest floor ` +
        `(the row: ${ratio(row.rps, floorRps(row))}); gateway hop ${num(hopUs)} µs + PostgreSQL read ${num(readUs)} µs per request`,
    );
  }
  return lines;
}

/** The final line: the run's conditions, every row with its ratios, the summary, memory. */
function jsonReport(input: ReportInput, { nodeRps, floorRps }: Floors, summary: Summary) {
  const h = input.header;
  return {
    bench: 'api',
    commit: h.git.commit,
    uncommittedFiles: h.git.dirty,
    node: process.version,
    cores: cpus().length,
    database: h.database,
    cards: h.cards,
    duration: h.duration,
    warmup: h.warmup,
    connections: h.connections,
    quotas: h.quotas,
    loadAverage: { before: h.loadBefore, after: loadavg()[0] },
    floorBytes: h.floorBytes,
    rows: Object.fromEntries(
      input.rows.map((r) => [
        r.id,
        {
          ...r,
          vsNest: r.rps !== undefined ? r.rps / floorRps(r) : null,
          vsNode: r.rps !== undefined ? r.rps / nodeRps : null,
        },
      ]),
    ),
    summary,
    residentBytes: input.memory,
  };
}
