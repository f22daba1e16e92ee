/**
 * The README's capacity model, computed: cores, pods, PostgreSQL replicas and Redis shards for a
 * request rate, from the CPU per request that `npm run bench:api` measured (its final JSON line),
 * and the disk two years of prices take, from the sizes of a loaded catalogue.
 *
 *   node dist/tools/bench/capacity-model.js <bench output file>… [--mix v1-zipf=0.45,…]
 *     [--utilisation 0.6] [--replica-cores 8] [--redis-us-per-op 10.2] [--rps 1000,10000,100000]
 *   DATABASE_URL=…/tcg_bench_full node dist/tools/bench/capacity-model.js --disk
 *     [--variants 500000,5000000] [--wal-bytes-per-observation 65500] [--max-wal-gb 16]
 *
 * Disk = data and indexes + what a day of imports leaves dead until VACUUM (every variant_prices
 * row, the documents of the cards it touches, the current month's row of each series) + a copy
 * of the largest table (a VACUUM FULL, pg_repack or CLUSTER writes one) + pg_wal (max_wal_size).
 *
 * With several bench outputs, each process's CPU per request is the median over them.
 */
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { parseArgs, runTool } from '../common/log';
import { median } from './sampling';
import { formatTable, num } from './table';

/** CPU per request (µs) of each process that served a bench row, as the bench's JSON reports it. */
export type RowCpu = Readonly<Record<string, number>>;

/** The tiers a request's CPU is split into, and the bench processes each one sums. */
export const TIERS = {
  gateway: ['api-gateway'],
  'api-v1': ['api-v1'],
  'api-v2': ['api-v2'],
  postgres: ['postgres'],
} as const;
export type Tier = keyof typeof TIERS;

export interface ModelInputs {
  /** Share of each bench row in the traffic (sums to 1). */
  readonly mix: Readonly<Record<string, number>>;
  /** Bench row → its CPU per request by process. */
  readonly cpu: Readonly<Record<string, RowCpu>>;
  /** Busy share a core is planned for (0.6: 40% left for peaks and a lost instance). */
  readonly utilisation: number;
  /** Cores of one PostgreSQL read replica. */
  readonly replicaCores: number;
  /** Redis CPU per quota command, µs, and commands per request. */
  readonly redisUsPerOp: number;
  readonly redisOpsPerRequest: number;
}

/** CPU per request of each tier (µs), weighted by the mix. */
export function cpuPerRequest(m: ModelInputs): Record<Tier, number> {
  const out = { gateway: 0, 'api-v1': 0, 'api-v2': 0, postgres: 0 } as Record<Tier, number>;
  for (const [row, share] of Object.entries(m.mix)) {
    const cpu = m.cpu[row];
    if (!cpu) throw new Error(`no CPU figures for bench row '${row}'`);
    for (const tier of Object.keys(TIERS) as Tier[])
      for (const process of TIERS[tier]) out[tier] += share * (cpu[process] ?? 0);
  }
  return out;
}

export interface Capacity {
  readonly rps: number;
  readonly cores: Record<Tier | 'redis', number>;
  readonly gatewayPods: number;
  readonly v1Pods: number;
  readonly v2Pods: number;
  readonly replicas: number;
  readonly redisShards: number;
}

/**
 * cores = rps × CPU per request / utilisation, per tier; a Node pod is one core (one event
 * loop), at least two of each for availability; replicas = PostgreSQL cores / cores per replica;
 * Redis shards = rps × ops per request × µs per op / utilisation (one core each, Redis runs its
 * commands on one thread).
 */
export function capacity(m: ModelInputs, rps: number): Capacity {
  const perRequest = cpuPerRequest(m);
  const cores = (us: number) => (rps * us) / 1e6 / m.utilisation;
  const c = {
    gateway: cores(perRequest.gateway),
    'api-v1': cores(perRequest['api-v1']),
    'api-v2': cores(perRequest['api-v2']),
    postgres: cores(perRequest.postgres),
    redis: cores(m.redisUsPerOp * m.redisOpsPerRequest),
  };
  const pods = (x: number) => Math.max(2, Math.ceil(x));
  return {
    rps,
    cores: c,
    gatewayPods: pods(c.gateway),
    v1Pods: pods(c['api-v1']),
    v2Pods: pods(c['api-v2']),
    replicas: Math.max(1, Math.ceil(c.postgres / m.replicaCores)),
    redisShards: Math.max(1, Math.ceil(c.redis)),
  };
}

/** Each row's per-process CPU: the median over the given bench runs. */
export function medianCpu(
  runs: readonly Readonly<Record<string, { cpuUs?: RowCpu }>>[],
): Record<string, RowCpu> {
  const out: Record<string, Record<string, number>> = {};
  const rows = new Set(runs.flatMap((r) => Object.keys(r)));
  for (const row of rows) {
    const processes = new Set(runs.flatMap((r) => Object.keys(r[row]?.cpuUs ?? {})));
    out[row] = {};
    for (const p of processes)
      out[row]![p] = median(runs.map((r) => r[row]?.cpuUs?.[p]).filter((v): v is number => v !== undefined));
  }
  return out;
}

function parseMix(text: string): Record<string, number> {
  const mix: Record<string, number> = {};
  for (const part of text.split(',')) {
    const [row, share] = part.split('=');
    mix[row!.trim()] = Number(share);
  }
  const total = Object.values(mix).reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-6) throw new Error(`--mix shares sum to ${total}, not 1`);
  return mix;
}

const DEFAULT_MIX = 'v1-zipf=0.45,v2-zipf=0.45,v1-search=0.08,v1-batch=0.02';

function computeModel(files: string[], o: Map<string, string | true>): string {
  const runs = files.map((f) => {
    const line = readFileSync(f, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('{"bench":"api"'));
    if (!line) throw new Error(`${f} holds no bench:api JSON line`);
    return (JSON.parse(line) as { rows: Record<string, { cpuUs?: RowCpu }> }).rows;
  });
  const opt = (name: string, fallback: string) => {
    const v = o.get(name);
    return typeof v === 'string' ? v : fallback;
  };
  const inputs: ModelInputs = {
    mix: parseMix(opt('mix', DEFAULT_MIX)),
    cpu: medianCpu(runs),
    utilisation: Number(opt('utilisation', '0.6')),
    replicaCores: Number(opt('replica-cores', '8')),
    redisUsPerOp: Number(opt('redis-us-per-op', '10.2')),
    redisOpsPerRequest: Number(opt('redis-ops-per-request', '1')),
  };
  const perRequest = cpuPerRequest(inputs);
  const lines = [
    `CPU per request, µs, weighted by the mix ${opt('mix', DEFAULT_MIX)} (median of ${runs.length} run(s)):`,
    `  ${Object.entries(perRequest)
      .map(([t, us]) => `${t} ${num(us)}`)
      .join(', ')}, redis ${num(inputs.redisUsPerOp * inputs.redisOpsPerRequest, 1)}`,
    '',
  ];
  const rows = opt('rps', '1000,10000,100000')
    .split(',')
    .map((r) => capacity(inputs, Number(r)));
  lines.push(
    formatTable(
      [
        'req/s',
        'gateway cores → pods',
        'api-v1 → pods',
        'api-v2 → pods',
        'PostgreSQL cores → replicas',
        'Redis cores → shards',
      ],
      rows.map((c) => [
        num(c.rps),
        `${num(c.cores.gateway, 1)} → ${c.gatewayPods}`,
        `${num(c.cores['api-v1'], 1)} → ${c.v1Pods}`,
        `${num(c.cores['api-v2'], 1)} → ${c.v2Pods}`,
        `${num(c.cores.postgres, 1)} → ${c.replicas} × ${inputs.replicaCores}`,
        `${num(c.cores.redis, 2)} → ${c.redisShards}`,
      ]),
    ),
  );
  return lines.join('\n');
}

/** Bytes of the catalogue's tables and the counts they scale with, read from a loaded database. */
async function computeDisk(o: Map<string, string | true>): Promise<string> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('--disk reads the sizes from DATABASE_URL (a loaded catalogue)');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(`
      SELECT (SELECT count(*) FROM variants)::bigint AS variants,
             (SELECT count(*) FROM cards)::bigint AS cards,
             (SELECT count(*) FROM variant_prices)::bigint AS series,
             (SELECT count(*) FROM price_series)::bigint AS month_rows,
             (SELECT sum(cardinality(offsets)) FROM price_series)::bigint AS observations,
             pg_total_relation_size('price_series')::bigint AS price_series,
             pg_total_relation_size('variant_prices')::bigint AS variant_prices,
             pg_total_relation_size('card_documents')::bigint AS card_documents,
             pg_total_relation_size('variants')::bigint AS variants_bytes,
             (pg_total_relation_size('cards') + pg_total_relation_size('card_values'))::bigint AS cards_bytes,
             pg_database_size(current_database())::bigint AS database`);
    const r = Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
    const monthsPerSeries = r['month_rows']! / r['series']!;
    const perVariant = {
      series: (r['price_series']! / r['month_rows']!) * 25 * (r['series']! / r['variants']!),
      stats: r['variant_prices']! / r['variants']!,
      documents: r['card_documents']! / r['variants']!,
      variants: r['variants_bytes']! / r['variants']!,
      cards: r['cards_bytes']! / r['variants']!,
    };
    const walPerObservation = Number(o.get('wal-bytes-per-observation') ?? NaN);
    const maxWal = Number(o.get('max-wal-gb') ?? 16) * 1e9;
    const gb = (b: number) => num(b / 1e9, 1);
    const lines = [
      `measured: ${num(r['variants'])} variants, ${num(r['cards'])} cards, ${num(r['series'])} priced series, ` +
        `${num(r['month_rows'])} month rows (${num(monthsPerSeries, 1)} per series), ${num(r['observations'])} observations, database ${gb(r['database']!)} GB`,
      `bytes: ${num(r['price_series']! / r['month_rows']!)} per month row of price_series; per variant: ` +
        Object.entries(perVariant)
          .map(([k, v]) => `${k} ${num(v)}`)
          .join(', '),
      '',
    ];
    const variants = (
      typeof o.get('variants') === 'string' ? (o.get('variants') as string) : '500000,5000000'
    )
      .split(',')
      .map(Number);
    lines.push(
      formatTable(
        [
          'variants',
          'price_series',
          'variant_prices',
          'card_documents',
          'variants+cards',
          'data+indexes',
          'dead after a day',
          'largest table',
          'pg_wal',
          'disk',
          'WAL of a day of imports',
        ],
        variants.map((v) => {
          const parts = [
            v * perVariant.series,
            v * perVariant.stats,
            v * perVariant.documents,
            v * (perVariant.variants + perVariant.cards),
          ];
          const data = parts.reduce((a, b) => a + b, 0);
          const dead = parts[1]! + parts[2]! + parts[0]! / 25;
          const largest = parts[0]!;
          return [
            num(v),
            ...parts.map(gb),
            gb(data),
            gb(dead),
            gb(largest),
            gb(maxWal),
            gb(data + dead + largest + maxWal),
            Number.isFinite(walPerObservation) ? gb(v * walPerObservation) : '-',
          ];
        }),
      ),
    );
    lines.push(
      '(GB = 10^9 bytes; price_series for 25 month rows per series, 24 full months and the current one)',
    );
    return lines.join('\n');
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const out = options.has('disk') ? await computeDisk(options) : computeModel(positional, options);
  process.stdout.write(`${out}\n`);
  return 0;
}

if (require.main === module) runTool('capacity model', main);
