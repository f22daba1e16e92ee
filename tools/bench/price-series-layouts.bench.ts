/**
 * Whether partitioning `price_series` pays, measured on a loaded catalogue (`full`: the bench's
 * `tcg_bench_full`). Copies the table three ways into scratch schemas of the same database,
 * filled from it with the same primary key:
 *
 *   unpartitioned   the table as the migrations make it
 *   by-month        PARTITION BY RANGE (month), one partition per month
 *   by-hash         PARTITION BY HASH (variant_uuid), `--hash-partitions` partitions
 *
 * and compares, per layout: the fill (every row COPYed in binary, as the loader writes), the
 * importer's own batch (`PriceIngestRepository.ingest` of one new observation for `--batch`
 * random variants, its real SQL, run in a transaction that is rolled back so the catalogue is
 * never changed; with the planner's own plans, and again with hash and merge joins off, which
 * leaves its whole-history read the primary-key nested loop), the API's history read
 * (`priceHistory`'s SQL, one card's variants over a year and a 200-card batch's over 90 days),
 * a day of observations for every series followed by VACUUM, ANALYZE, sizes, and retention (the
 * two oldest months removed: DELETE and VACUUM, or DETACH and DROP).
 *
 *   DATABASE_URL=postgres://…/tcg_bench_full npm run bench:partitioning -- [--repeats 5] [--batch 5000]
 *     [--hash-partitions 16] [--keep]
 *
 * CPU is the PostgreSQL backend's user + system time from /proc (so the database must be on this
 * machine; elsewhere it reads n/a), wall time is the client's. Every timing is repeated and
 * reported as median [min–max]. The scratch schemas (about 3 × the table) are dropped at the end
 * unless `--keep`; the catalogue's variant_prices and card_documents, which the rolled-back
 * batches wrote to, are vacuumed after them.
 */
import { PriceIngestRepository, type IngestObservation } from '@tcg/persistence';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { Client, type PoolClient } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { DataSource } from 'typeorm';
import { log, parseArgs, runTool } from '../common/log';
import { median } from './sampling';
import { seededRandom } from './sampling';

const LAYOUTS = ['unpartitioned', 'by-month', 'by-hash'] as const;
type Layout = (typeof LAYOUTS)[number];
const SCHEMA: Record<Layout, string> = {
  unpartitioned: 'bench_ps_plain',
  'by-month': 'bench_ps_month',
  'by-hash': 'bench_ps_hash',
};
const COLUMNS = 'variant_uuid, region, month, offsets, prices';

/** How the importer's batch is run: a layout, with the planner's own plans or the index plan. */
interface ImportVariant {
  readonly id: string;
  readonly layout: Layout;
  readonly indexPlan: boolean;
}
const IMPORT_VARIANTS: readonly ImportVariant[] = [
  { id: 'unpartitioned', layout: 'unpartitioned', indexPlan: false },
  { id: 'unpartitioned, index plan', layout: 'unpartitioned', indexPlan: true },
  { id: 'by-month', layout: 'by-month', indexPlan: false },
  { id: 'by-hash', layout: 'by-hash', indexPlan: false },
  { id: 'by-hash, index plan', layout: 'by-hash', indexPlan: true },
];
const DAY = 86_400;
const YEAR = 365 * DAY;
const SEED = 20_261_125;

/** `priceHistory`'s statement (libs/persistence card-query.repository.ts), word for word. */
const HISTORY_SQL = `SELECT ps.variant_uuid, extract(epoch FROM ps.month)::bigint AS month_start,
                ps.offsets::text AS offsets, ps.prices::text AS prices
         FROM unnest($1::uuid[], $2::date[]) AS r(variant_uuid, first_month)
         JOIN price_series ps ON ps.variant_uuid = r.variant_uuid AND ps.region = $3 AND ps.month >= r.first_month
         ORDER BY ps.variant_uuid, ps.month`;

/** The ingest's whole-history read (`loadSeries`), word for word: the plan is shown per layout. */
const LOAD_SERIES_SQL = `SELECT s.variant_uuid, s.region, extract(epoch FROM s.month)::bigint AS month_start, s.offsets, s.prices
       FROM price_series s
       JOIN unnest($1::uuid[], $2::text[]) AS k(variant_uuid, region)
         ON s.variant_uuid = k.variant_uuid AND s.region = k.region`;

interface Options {
  readonly url: string;
  readonly repeats: number;
  readonly batch: number;
  readonly hashPartitions: number;
  readonly keep: boolean;
}

function options(argv: readonly string[]): Options {
  const { options: o } = parseArgs(argv);
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL must name the loaded catalogue (e.g. …/tcg_bench_full)');
  const int = (name: string, fallback: number): number => {
    const v = o.get(name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} needs a positive integer`);
    return n;
  };
  return {
    url,
    repeats: int('repeats', 5),
    batch: int('batch', 5000),
    hashPartitions: int('hash-partitions', 16),
    keep: o.has('keep'),
  };
}

/** One measurement: client wall time, backend CPU and WAL written, and what else it reported. */
interface Sample {
  readonly ms: number;
  readonly cpuMs: number | null;
  readonly walBytes: number;
  readonly extra?: Record<string, number>;
}

/** A connection with what it takes to measure its statements. */
class Session {
  private constructor(
    readonly client: Client,
    private readonly pid: number,
  ) {}

  static async open(url: string, searchPath?: string, indexPlan = false): Promise<Session> {
    const client = new Client({ connectionString: url, application_name: 'bench-partitioning' });
    await client.connect();
    // The statements below are measured as the services and the importer run them; none of
    // them is cut short by a deadline meant for a request.
    await client.query('SET statement_timeout = 0');
    if (searchPath) await client.query(`SET search_path = ${searchPath}`);
    if (indexPlan) await client.query('SET enable_hashjoin = off; SET enable_mergejoin = off');
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return new Session(client, rows[0]!.pid);
  }

  /** The backend's CPU milliseconds (user + system), or null when its /proc is not readable. */
  cpuMs(): number | null {
    try {
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return null;
    }
  }

  async lsn(): Promise<string> {
    const { rows } = await this.client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    return rows[0]!.lsn;
  }

  async walSince(lsn: string): Promise<number> {
    const { rows } = await this.client.query<{ b: string }>(
      'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint AS b',
      [lsn],
    );
    return Number(rows[0]!.b);
  }

  /** Runs `work` and measures it (the WAL figure includes any other writer of the server meanwhile). */
  async measure(work: () => Promise<Record<string, number> | void>): Promise<Sample> {
    const lsn = await this.lsn();
    const cpu = this.cpuMs();
    const started = performance.now();
    const extra = await work();
    const ms = performance.now() - started;
    const cpuAfter = this.cpuMs();
    return {
      ms,
      cpuMs: cpu === null || cpuAfter === null ? null : cpuAfter - cpu,
      walBytes: await this.walSince(lsn),
      ...(extra ? { extra } : {}),
    };
  }

  async end(): Promise<void> {
    await this.client.end();
  }
}

/** Month starts (`YYYY-MM-01`) from the first stored month to the one after the last. */
async function storedMonths(s: Session): Promise<string[]> {
  const { rows } = await s.client.query<{ m: string }>(
    `SELECT to_char(m, 'YYYY-MM-DD') AS m
     FROM generate_series((SELECT min(month) FROM public.price_series),
                          (SELECT max(month) FROM public.price_series) + interval '1 month',
                          interval '1 month') AS m`,
  );
  return rows.map((r) => r.m);
}

async function createLayout(
  s: Session,
  layout: Layout,
  months: string[],
  hashPartitions: number,
): Promise<void> {
  const schema = SCHEMA[layout];
  const table = `${schema}.price_series`;
  await s.client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await s.client.query(`CREATE SCHEMA ${schema}`);
  if (layout === 'unpartitioned') {
    await s.client.query(`CREATE TABLE ${table} (LIKE public.price_series INCLUDING ALL)`);
    return;
  }
  const by = layout === 'by-month' ? 'RANGE (month)' : 'HASH (variant_uuid)';
  await s.client.query(
    `CREATE TABLE ${table} (LIKE public.price_series INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY ${by}`,
  );
  await s.client.query(`ALTER TABLE ${table} ADD PRIMARY KEY (variant_uuid, region, month)`);
  if (layout === 'by-month')
    for (let i = 0; i + 1 < months.length; i++)
      await s.client.query(
        `CREATE TABLE ${schema}.price_series_${months[i]!.slice(0, 7).replace('-', '_')} PARTITION OF ${table}
         FOR VALUES FROM ('${months[i]}') TO ('${months[i + 1]}')`,
      );
  else
    for (let i = 0; i < hashPartitions; i++)
      await s.client.query(
        `CREATE TABLE ${schema}.price_series_h${i} PARTITION OF ${table}
         FOR VALUES WITH (MODULUS ${hashPartitions}, REMAINDER ${i})`,
      );
}

/** Heap, index and TOAST bytes of a layout, summed over its partitions. */
async function sizes(s: Session, layout: Layout): Promise<Record<string, number>> {
  const table = `${SCHEMA[layout]}.price_series`;
  const { rows } = await s.client.query<{ heap: string; indexes: string; total: string; parts: number }>(
    `WITH leaves AS (
       SELECT relid FROM pg_partition_tree($1::regclass) WHERE isleaf
       UNION SELECT $1::regclass WHERE NOT EXISTS (SELECT 1 FROM pg_partition_tree($1::regclass) WHERE isleaf))
     SELECT sum(pg_relation_size(relid))::bigint AS heap, sum(pg_indexes_size(relid))::bigint AS indexes,
            sum(pg_total_relation_size(relid))::bigint AS total, count(*)::int AS parts
     FROM leaves`,
    [table],
  );
  const r = rows[0]!;
  return { heap: Number(r.heap), indexes: Number(r.indexes), total: Number(r.total), partitions: r.parts };
}

/**
 * A client whose COMMIT is a ROLLBACK, timing every other statement by what it does: the
 * importer's real code runs its real SQL and leaves the catalogue as it was.
 */
function rollingBack(client: Client, measured: Map<string, number>): PoolClient {
  const query = client.query.bind(client) as (text: unknown, values?: unknown) => Promise<unknown>;
  const add = (key: string, value: number) => measured.set(key, (measured.get(key) ?? 0) + value);
  const lsn = async (): Promise<string | undefined> => {
    const res = (await query('SELECT pg_current_wal_insert_lsn()::text AS l').catch(() => undefined)) as
      { rows: { l: string }[] } | undefined;
    return res?.rows[0]?.l;
  };
  const wrapped = (text: unknown, values?: unknown): unknown => {
    // A COPY stream is handed back as it is (the caller pipes into it); it is timed in the total.
    if (typeof text !== 'string') return query(text);
    const sql = text.trim() === 'COMMIT' ? 'ROLLBACK' : text;
    const what = statementKind(sql);
    return (async () => {
      const walBefore = await lsn();
      const started = performance.now();
      try {
        return await query(sql, values);
      } finally {
        add(`${what}Ms`, performance.now() - started);
        if (walBefore !== undefined) {
          const res = (await query('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::bigint AS b', [
            walBefore,
          ]).catch(() => undefined)) as { rows: { b: string }[] } | undefined;
          if (res) add(`${what}WalKiB`, Number(res.rows[0]!.b) / 1024);
        }
      }
    })();
  };
  return new Proxy(client, {
    get: (target, prop) => (prop === 'query' ? wrapped : Reflect.get(target, prop, target)),
  }) as unknown as PoolClient;
}

function statementKind(sql: string): string {
  if (/FROM price_series s\s+JOIN unnest/.test(sql)) return 'historyRead';
  if (/INSERT INTO price_series/.test(sql)) return 'seriesUpsert';
  if (/INSERT INTO variant_prices/.test(sql)) return 'statsUpsert';
  if (/INSERT INTO card_documents/.test(sql)) return 'documents';
  if (/pg_advisory_xact_lock/.test(sql)) return 'locks';
  return 'other';
}

/** One new observation for each of `size` random priced variants at the next UTC midnight. */
async function importBatch(s: Session, size: number, seed: number): Promise<IngestObservation[]> {
  const { rows } = await s.client.query<{ variant_uuid: string; price: string; next: string }>(
    `SELECT variant_uuid, price,
            ((SELECT max(updated_at) FROM public.variant_prices WHERE region = 'NA') / ${DAY} + 1) * ${DAY} AS next
     FROM public.variant_prices WHERE region = 'NA'
     ORDER BY md5(variant_uuid::text || $1) LIMIT $2`,
    [String(seed), size],
  );
  const random = seededRandom(seed);
  return rows.map((r) => ({
    variantUuid: r.variant_uuid,
    region: 'NA',
    t: Number(r.next),
    price: Math.max(1, Math.round(Number(r.price) * (0.99 + 0.02 * random()))),
  }));
}

async function ingestOnce(s: Session, batch: readonly IngestObservation[]): Promise<Sample> {
  const measured = new Map<string, number>();
  const client = rollingBack(s.client, measured);
  const ds = {
    createQueryRunner: () => ({ connect: async () => client, release: async () => undefined }),
  } as unknown as DataSource;
  const repo = new PriceIngestRepository(ds);
  const nodeCpu = process.cpuUsage();
  const sample = await s.measure(async () => {
    const result = await repo.ingest(batch);
    if (result.seriesRefreshed !== batch.length)
      throw new Error(`expected ${batch.length} series refreshed, got ${result.seriesRefreshed}`);
  });
  const node = process.cpuUsage(nodeCpu);
  return {
    ...sample,
    extra: { ...Object.fromEntries(measured), nodeCpuMs: (node.user + node.system) / 1000 },
  };
}

/** Variants of `cards` random cards with their `since` month, as `priceHistory` binds them. */
async function historyRequest(
  s: Session,
  cards: number,
  back: number,
  seed: number,
): Promise<[string[], string[], string]> {
  const { rows } = await s.client.query<{ variant_uuid: string; first_month: string }>(
    `WITH picked AS (SELECT uuid FROM public.cards ORDER BY md5(uuid::text || $1) LIMIT $2)
     SELECT vp.variant_uuid,
            to_char(date_trunc('month', to_timestamp(vp.updated_at - $3) AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS first_month
     FROM picked c JOIN public.variants v ON v.card_uuid = c.uuid AND v.type = 'raw'
     JOIN public.variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'`,
    [String(seed), cards, back],
  );
  return [rows.map((r) => r.variant_uuid), rows.map((r) => r.first_month), 'NA'];
}

interface Stat {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}
function stat(values: readonly number[]): Stat {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}
function summarise(samples: readonly Sample[]): Record<string, Stat | null> {
  const out: Record<string, Stat | null> = {
    ms: stat(samples.map((x) => x.ms)),
    cpuMs: samples.some((x) => x.cpuMs === null) ? null : stat(samples.map((x) => x.cpuMs!)),
    walBytes: stat(samples.map((x) => x.walBytes)),
  };
  const keys = new Set(samples.flatMap((x) => Object.keys(x.extra ?? {})));
  for (const k of keys) out[k] = stat(samples.map((x) => x.extra?.[k] ?? 0));
  return out;
}
const fmt = (s: Stat | null | undefined, digits = 0): string =>
  !s
    ? 'n/a'
    : s.n === 1
      ? s.median.toFixed(digits)
      : `${s.median.toFixed(digits)} [${s.min.toFixed(digits)}–${s.max.toFixed(digits)}]`;
const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;

/** VACUUM (VERBOSE)'s per-table lines summed: heap pages scanned, index pages passed over. */
function vacuumCounts(notices: readonly string[]): Record<string, number> {
  let heapScanned = 0;
  let indexPages = 0;
  let indexScans = 0;
  for (const n of notices) {
    for (const m of n.matchAll(/pages: \d+ removed, \d+ remain, (\d+) scanned/g)) heapScanned += Number(m[1]);
    for (const m of n.matchAll(/index scans: (\d+)/g)) indexScans += Number(m[1]);
    // Index lines are printed whether or not the index was scanned; count them only when it was.
    if (!/index scans: 0\b/.test(n))
      for (const m of n.matchAll(/index "[^"]+": pages: (\d+) in total/g)) indexPages += Number(m[1]);
  }
  return { heapPagesScanned: heapScanned, indexScans, indexPagesVacuumed: indexPages };
}

async function main(): Promise<number> {
  const o = options(process.argv.slice(2));
  const admin = await Session.open(o.url);
  const results: Record<string, unknown> = {};
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    log('info', line);
  };
  try {
    const { rows: head } = await admin.client.query<{ rows: string; size: string; db: string }>(
      `SELECT (SELECT count(*) FROM public.price_series)::bigint AS rows,
              pg_total_relation_size('public.price_series')::bigint AS size, current_database() AS db`,
    );
    say(
      `price_series of ${head[0]!.db}: ${Number(head[0]!.rows).toLocaleString('en-US')} month rows, ${mb(Number(head[0]!.size))}`,
    );
    const months = await storedMonths(admin);

    // The fill: every row COPYed in binary in the table's physical order (the loader's order),
    // the primary key in place as the loader's COPY meets it; then the first VACUUM and an
    // ANALYZE. CPU is the receiving backend's.
    const fill: Record<string, unknown> = {};
    for (const layout of LAYOUTS) {
      await createLayout(admin, layout, months, o.hashPartitions);
      const table = `${SCHEMA[layout]}.price_series`;
      const target = await Session.open(o.url);
      const insert = await target.measure(async () => {
        await pipeline(
          admin.client.query(
            copyTo(`COPY (SELECT ${COLUMNS} FROM public.price_series) TO STDOUT (FORMAT binary)`),
          ),
          target.client.query(copyFrom(`COPY ${table} (${COLUMNS}) FROM STDIN (FORMAT binary)`)),
        );
      });
      await target.end();
      const vacuum = await admin.measure(async () => {
        await admin.client.query(`VACUUM ${table}`);
      });
      const analyze = await admin.measure(async () => {
        await admin.client.query(`ANALYZE ${table}`);
      });
      fill[layout] = { insert, vacuum, analyze, sizes: await sizes(admin, layout) };
      say(
        `fill ${layout}: COPY ${(insert.ms / 1000).toFixed(1)} s wall, ${((insert.cpuMs ?? NaN) / 1000).toFixed(1)} s CPU, ` +
          `${mb(insert.walBytes)} WAL; first VACUUM ${(vacuum.ms / 1000).toFixed(1)} s; ANALYZE ${(analyze.ms / 1000).toFixed(1)} s`,
      );
    }
    results['fill'] = fill;

    // The importer's batch, its real code and SQL per layout, rolled back; each repeat a new
    // random batch, the variants in rotating order.
    const importSessions = new Map<string, Session>();
    for (const v of IMPORT_VARIANTS)
      importSessions.set(v.id, await Session.open(o.url, `${SCHEMA[v.layout]}, public`, v.indexPlan));
    const ingestSamples = new Map<string, Sample[]>(IMPORT_VARIANTS.map((v) => [v.id, []]));
    for (let r = 0; r < o.repeats; r++) {
      const batch = await importBatch(admin, o.batch, SEED + r);
      for (let k = 0; k < IMPORT_VARIANTS.length; k++) {
        const v = IMPORT_VARIANTS[(r + k) % IMPORT_VARIANTS.length]!;
        ingestSamples.get(v.id)!.push(await ingestOnce(importSessions.get(v.id)!, batch));
      }
    }
    const ingest: Record<string, unknown> = {};
    const kib = (x: Stat | null | undefined) =>
      x && { ...x, median: x.median / 1024, min: x.min / 1024, max: x.max / 1024 };
    for (const v of IMPORT_VARIANTS) {
      const s = summarise(ingestSamples.get(v.id)!);
      ingest[v.id] = s;
      say(
        `import batch of ${o.batch} (${v.id}): ${fmt(s['ms'])} ms wall, backend CPU ${fmt(s['cpuMs'])} ms, ` +
          `WAL ${fmt(kib(s['walBytes']))} KiB; history read ${fmt(s['historyReadMs'])} ms, ` +
          `series upsert ${fmt(s['seriesUpsertMs'])} ms (WAL ${fmt(s['seriesUpsertWalKiB'])} KiB), ` +
          `stats upsert ${fmt(s['statsUpsertMs'])} ms (WAL ${fmt(s['statsUpsertWalKiB'])} KiB), ` +
          `documents ${fmt(s['documentsMs'])} ms (WAL ${fmt(s['documentsWalKiB'])} KiB), Node CPU ${fmt(s['nodeCpuMs'])} ms`,
      );
    }
    results['importBatch'] = ingest;

    // The plans of the ingest's history read, with buffers, on one batch.
    const planBatch = await importBatch(admin, o.batch, SEED);
    const plans: Record<string, string[]> = {};
    for (const v of IMPORT_VARIANTS) {
      const { rows } = await importSessions
        .get(v.id)!
        .client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) ${LOAD_SERIES_SQL}`, [
          planBatch.map((b) => b.variantUuid),
          planBatch.map((b) => b.region),
        ]);
      plans[v.id] = rows.map((x) => x['QUERY PLAN']);
      say(`ingest history read plan (${v.id}):\n    ${plans[v.id]!.slice(0, 12).join('\n    ')}`);
    }
    results['historyReadPlans'] = plans;
    for (const s of importSessions.values()) await s.end();
    // A rollback does not shrink a table: the batches' new versions of the catalogue's own
    // variant_prices and card_documents rows (about 90 MB a batch at full, mostly TOAST) stay in
    // their files until a VACUUM removes them and gives the files' tails back.
    await admin.client.query('VACUUM public.variant_prices, public.card_documents');
    const sessions = new Map<Layout, Session>();
    for (const layout of LAYOUTS)
      sessions.set(layout, await Session.open(o.url, `${SCHEMA[layout]}, public`));

    // The API's history read (a non-default duration): prepared, as the services run it; each
    // request run `times` times in a row, a sample being the mean of one request's runs.
    const reads: Record<string, unknown> = {};
    for (const [what, cards, back, repeats, times] of [
      ['one card, 1y', 1, YEAR, 21, 20],
      ['200-card batch, 90d', 200, 90 * DAY, 7, 3],
    ] as const) {
      const requests = [];
      for (let r = 0; r < repeats; r++)
        requests.push(await historyRequest(admin, cards, back, SEED + 100 + r));
      const perLayout: Record<string, unknown> = {};
      for (const layout of LAYOUTS) {
        const s = sessions.get(layout)!;
        const samples: Sample[] = [];
        for (const params of requests) {
          const x = await s.measure(async () => {
            let rows = 0;
            for (let t = 0; t < times; t++)
              rows = (await s.client.query({ name: `history_${layout}`, text: HISTORY_SQL, values: params }))
                .rowCount!;
            return { rows };
          });
          samples.push({ ...x, ms: x.ms / times, cpuMs: x.cpuMs === null ? null : x.cpuMs / times });
        }
        const sum = summarise(samples);
        perLayout[layout] = sum;
        say(
          `API history read, ${what} (${layout}): ${fmt(sum['ms'], 2)} ms wall, backend CPU ${fmt(sum['cpuMs'], 2)} ms, ${fmt(sum['rows'])} month rows`,
        );
      }
      const last = requests[requests.length - 1]!;
      for (const layout of LAYOUTS) {
        const { rows } = await sessions
          .get(layout)!
          .client.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) ${HISTORY_SQL}`,
            last,
          );
        say(
          `API history read plan, ${what} (${layout}):\n    ${rows
            .map((x) => x['QUERY PLAN'])
            .slice(0, 8)
            .join('\n    ')}`,
        );
      }
      reads[what] = perLayout;
    }
    results['apiHistoryRead'] = reads;
    for (const s of sessions.values()) await s.end();

    // Maintenance: a day of observations for every series (the current month's row of each, as
    // the importer's upsert writes it), then VACUUM (VERBOSE); three days.
    const current = months[months.length - 2]!;
    await admin.client.query(`
      CREATE TEMP TABLE bench_day AS
      SELECT variant_uuid, region, month,
             offsets || (offsets[cardinality(offsets)] + ${DAY}) AS offsets,
             prices || prices[cardinality(prices)] AS prices
      FROM public.price_series WHERE month = '${current}'`);
    const { rows: dayCount } = await admin.client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM bench_day',
    );
    const dayRows = dayCount[0]!.n;
    const notices: string[] = [];
    admin.client.on('notice', (n) => notices.push(n.message ?? ''));
    const day = new Map<Layout, Sample[]>(LAYOUTS.map((l) => [l, []]));
    const vacuum = new Map<Layout, Sample[]>(LAYOUTS.map((l) => [l, []]));
    for (let d = 0; d < 3; d++) {
      await admin.client.query(
        `UPDATE bench_day SET offsets = offsets || (offsets[cardinality(offsets)] + ${DAY}), prices = prices || prices[cardinality(prices)]`,
      );
      for (const layout of LAYOUTS) {
        const table = `${SCHEMA[layout]}.price_series`;
        day.get(layout)!.push(
          await admin.measure(async () => {
            await admin.client.query(`
              INSERT INTO ${table} (${COLUMNS}) SELECT ${COLUMNS} FROM bench_day
              ON CONFLICT (variant_uuid, region, month) DO UPDATE SET offsets = EXCLUDED.offsets, prices = EXCLUDED.prices`);
          }),
        );
      }
      for (const layout of LAYOUTS) {
        notices.length = 0;
        vacuum.get(layout)!.push(
          await admin.measure(async () => {
            await admin.client.query(`VACUUM (VERBOSE) ${SCHEMA[layout]}.price_series`);
            return vacuumCounts(notices);
          }),
        );
      }
    }
    const maintenance: Record<string, unknown> = {};
    for (const layout of LAYOUTS) {
      const table = `${SCHEMA[layout]}.price_series`;
      const analyze: Sample[] = [];
      for (let i = 0; i < 3; i++)
        analyze.push(
          await admin.measure(async () => {
            await admin.client.query(`ANALYZE ${table}`);
          }),
        );
      const dayS = summarise(day.get(layout)!);
      const vacS = summarise(vacuum.get(layout)!);
      const anS = summarise(analyze);
      const sz = await sizes(admin, layout);
      maintenance[layout] = { dayUpsert: dayS, vacuum: vacS, analyze: anS, sizesAfter: sz };
      say(
        `maintenance (${layout}): a day for every series, upsert of ${dayRows} rows ${fmt(dayS['ms'])} ms ` +
          `(CPU ${fmt(dayS['cpuMs'])} ms, WAL ${mb(dayS['walBytes']!.median)}); VACUUM after it ${fmt(vacS['ms'])} ms ` +
          `(CPU ${fmt(vacS['cpuMs'])} ms, heap pages scanned ${fmt(vacS['heapPagesScanned'])}, index pages vacuumed ${fmt(vacS['indexPagesVacuumed'])}, WAL ${mb(vacS['walBytes']!.median)}); ` +
          `ANALYZE ${fmt(anS['ms'])} ms (CPU ${fmt(anS['cpuMs'])} ms); after 3 days: heap ${mb(sz['heap']!)}, indexes ${mb(sz['indexes']!)}`,
      );
    }
    results['maintenance'] = maintenance;

    // Retention: the two oldest months go.
    const cutoff = months[2]!;
    const retention: Record<string, unknown> = {};
    for (const layout of LAYOUTS) {
      const schema = SCHEMA[layout];
      const table = `${schema}.price_series`;
      if (layout === 'by-month') {
        const drop = await admin.measure(async () => {
          for (const m of months.slice(0, 2)) {
            const part = `${schema}.price_series_${m.slice(0, 7).replace('-', '_')}`;
            await admin.client.query(`ALTER TABLE ${table} DETACH PARTITION ${part}`);
            await admin.client.query(`DROP TABLE ${part}`);
          }
        });
        retention[layout] = { detachDrop: drop };
        say(
          `retention (${layout}): months before ${cutoff} detached and dropped in ${drop.ms.toFixed(0)} ms (CPU ${drop.cpuMs} ms, WAL ${(drop.walBytes / 1024).toFixed(0)} KiB)`,
        );
        continue;
      }
      const del = await admin.measure(async () => {
        const res = await admin.client.query(`DELETE FROM ${table} WHERE month < '${cutoff}'`);
        return { rows: res.rowCount ?? 0 };
      });
      notices.length = 0;
      const vac = await admin.measure(async () => {
        await admin.client.query(`VACUUM (VERBOSE) ${table}`);
        return vacuumCounts(notices);
      });
      retention[layout] = { delete: del, vacuum: vac };
      say(
        `retention (${layout}): DELETE of ${del.extra!['rows']} rows before ${cutoff} ${(del.ms / 1000).toFixed(1)} s ` +
          `(CPU ${((del.cpuMs ?? NaN) / 1000).toFixed(1)} s, WAL ${mb(del.walBytes)}), then VACUUM ${(vac.ms / 1000).toFixed(1)} s ` +
          `(CPU ${((vac.cpuMs ?? NaN) / 1000).toFixed(1)} s, WAL ${mb(vac.walBytes)})`,
      );
    }
    results['retention'] = retention;
  } finally {
    if (!o.keep)
      for (const layout of LAYOUTS)
        await admin.client.query(`DROP SCHEMA IF EXISTS ${SCHEMA[layout]} CASCADE`);
    await admin.end();
  }
  process.stdout.write(
    `${lines.join('\n')}\n${JSON.stringify({ bench: 'price-series-layouts', ...o, url: undefined, results })}\n`,
  );
  return 0;
}

runTool('price-series-layouts bench', main);
