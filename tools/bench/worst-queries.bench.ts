/**
 * The worst v1 and v2 card reads, as PostgreSQL runs them: for each combination of filter,
 * ordering, offset and limit, the statements the repositories run (recorded from the pool, so
 * exactly their text and parameters) are each run again under `EXPLAIN (ANALYZE, BUFFERS)`, and
 * the table gives the median server time (planning + execution, summed over the request's
 * statements) and the buffers the statements touched.
 *
 *   DATABASE_URL=postgres://…/tcg_bench_full npm run bench:worst-queries -- [--runs 3] [--only v1-cond] [--statements]
 *
 * `--statements` logs each statement's text and parameters, to EXPLAIN it by hand.
 */
import type { CardOrder, KeysetQuery, VariantFilter } from '@tcg/domain';
import {
  CardSelector,
  DomainError,
  invalidParameter,
  MAX_UPDATED_PRICES,
  orderNeedsSet,
  parseRegion,
  parseSearchText,
  unboundedOrder,
} from '@tcg/domain';
import { CardKeysetRepository, CardQueryRepository, poolOf } from '@tcg/persistence';
import { v1JoinedJson } from '@tcg/rendering';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { median } from './sampling';
import { formatTable, ms, num } from './table';

interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** One request's worth of reads, run against the repositories as the services call them. */
interface Combination {
  readonly name: string;
  readonly run: (r: Repositories) => Promise<unknown>;
}

interface Repositories {
  readonly v1: CardQueryRepository;
  readonly v2: CardKeysetRepository;
}

/** What one EXPLAIN ANALYZE reports of a statement. */
interface Explained {
  readonly ms: number;
  readonly buffers: number;
}

/** The v2 count's budget as the services run it (TOTAL_COUNT_BUDGET_MS' default). */
const COUNT_BUDGET_MS = 250;

/**
 * Records every parameterised statement run on the pool's connections (BEGIN, SET and COMMIT
 * carry no parameters and are left out): the prepared reads and the v2 count's transaction alike.
 */
function recordStatements(pool: Pool): { take(): Statement[] } {
  let seen: Statement[] = [];
  const patched = new WeakSet<PoolClient>();
  const patch = (client: PoolClient) => {
    if (patched.has(client)) return;
    patched.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [first, second] = args;
      // The bench's own EXPLAINs run on the same pool and are not the repositories'.
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
      if (typeof text === 'string' && text.startsWith('EXPLAIN')) return query(...args);
      if (typeof first === 'object' && first !== null && 'text' in first) {
        const config = first as QueryConfig;
        if (config.values) seen.push({ text: config.text, values: config.values });
      } else if (typeof first === 'string' && Array.isArray(second)) {
        seen.push({ text: first, values: second });
      }
      return query(...args);
    };
  };
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    const [callback] = args;
    if (typeof callback === 'function')
      return connect((error: unknown, client: PoolClient, release: unknown) => {
        if (client) patch(client);
        (callback as (...a: unknown[]) => void)(error, client, release);
      });
    return (connect() as Promise<PoolClient>).then((client) => {
      patch(client);
      return client;
    });
  };
  return {
    take: () => {
      const out = seen;
      seen = [];
      return out;
    },
  };
}

/** The statement's server time and buffers, by EXPLAIN (ANALYZE, BUFFERS) on a connection of its own. */
async function explain(ds: DataSource, s: Statement): Promise<Explained> {
  const client = await poolOf(ds).connect();
  try {
    await client.query('SET statement_timeout = 60000');
    const { rows } = await client
      .query<{ 'QUERY PLAN': ExplainJson[] }>({
        text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`,
        values: s.values as unknown[],
      })
      .catch((error: Error) => {
        throw new Error(`${error.message} explaining: ${s.text.slice(0, 300)}`);
      });
    const [plan] = rows[0]!['QUERY PLAN'];
    const top = plan!.Plan;
    return {
      ms: plan!['Planning Time'] + plan!['Execution Time'],
      buffers: top['Shared Hit Blocks'] + top['Shared Read Blocks'],
    };
  } finally {
    await client.query('RESET statement_timeout').catch(() => undefined);
    client.release();
  }
}

interface ExplainJson {
  readonly 'Planning Time': number;
  readonly 'Execution Time': number;
  readonly Plan: { readonly 'Shared Hit Blocks': number; readonly 'Shared Read Blocks': number };
}

/** v1's largest `offset` (apps/api-v1 MAX_OFFSET): deeper is a 400 before any statement. */
const V1_MAX_OFFSET = 10_000;

/**
 * The refusals both versions make before reading (400 naming the parameter), with the same
 * domain rules: a search text without three letters or digits in a row, a sort or price floor
 * that would find each card's best variant card by card, an offset past the cap.
 */
function refuseAsTheApiDoes(
  selector: CardSelector,
  filter: VariantFilter,
  order: { by?: string; minPrice?: number },
  offset: number,
): void {
  if (selector.by === 'browse' && selector.q !== undefined) parseSearchText(selector.q, 'q');
  if (unboundedOrder(selector, filter, order)) throw orderNeedsSet('orderBy', 'condition', 'set');
  if (offset > V1_MAX_OFFSET) throw invalidParameter('offset', String(offset), `0 to ${V1_MAX_OFFSET}`);
}

/** The combinations measured, over the largest game of the catalogue. */
function combinations(gameId: string, setId: string, recent: { week: number; atCap: number }): Combination[] {
  const browse = { by: 'browse', gameId } as const;
  const V1_JOINED = { kind: 'joined', json: v1JoinedJson(true), region: 'NA' } as const;
  const none: CardOrder = { direction: 'desc' };
  const byPrice: CardOrder = { by: 'price', direction: 'desc' };
  const by7d: CardOrder = { by: '7d', direction: 'desc' };
  const v1Filters: [string, VariantFilter][] = [
    ['none', { includeNullPrices: false }],
    ['condition=NM', { includeNullPrices: false, conditions: ['Near Mint'] }],
    ['printing=foil', { includeNullPrices: false, printings: ['foil'] }],
    ['updated_after=week', { includeNullPrices: false, updatedAfter: recent.week }],
    ['updated_after=at-cap', { includeNullPrices: false, updatedAfter: recent.atCap }],
    ['include_null_prices', { includeNullPrices: true }],
  ];
  const v1 = (
    filterName: string,
    filter: VariantFilter,
    orderName: string,
    order: CardOrder,
    offset: number,
    limit: number,
    selector: Parameters<CardQueryRepository['findCards']>[0] = browse,
  ): Combination => ({
    name: `v1 ${filterName} ${orderName} offset=${offset} limit=${limit}`,
    run: async (r) => {
      refuseAsTheApiDoes(selector, filter, order, offset);
      return r.v1.findCards(selector, filter, { limit, offset }, order, V1_JOINED);
    },
  });
  const out: Combination[] = [];
  for (const [name, filter] of v1Filters) {
    out.push(v1(name, filter, 'set-order', none, 0, 200));
    out.push(v1(name, filter, 'orderBy=price', byPrice, 0, 20));
    out.push(v1(name, filter, 'set-order', none, V1_MAX_OFFSET, 20));
  }
  out.push(v1('none', v1Filters[0]![1], 'orderBy=7d', by7d, 10_000, 200));
  out.push(v1('none', v1Filters[0]![1], 'set-order', none, 50_000, 20));
  const nm: VariantFilter = { includeNullPrices: false, conditions: ['Near Mint'] };
  out.push(v1('set condition=NM', nm, 'orderBy=price', byPrice, 0, 200, { by: 'browse', setId }));
  out.push(v1('q=dragon condition=NM', nm, 'orderBy=price', byPrice, 0, 20, { ...browse, q: 'dragon' }));
  out.push(v1('q=the condition=NM', nm, 'orderBy=price', byPrice, 0, 20, { ...browse, q: 'the' }));
  out.push(v1('q=the', { includeNullPrices: true }, 'relevance', none, 0, 200, { ...browse, q: 'the' }));
  out.push(v1('q=dragon', { includeNullPrices: true }, 'relevance', none, 0, 20, { ...browse, q: 'dragon' }));
  out.push(v1('q=a', { includeNullPrices: true }, 'relevance', none, 0, 200, { ...browse, q: 'a' }));
  out.push(v1('q=the', { includeNullPrices: true }, 'relevance', none, 5_000, 20, { ...browse, q: 'the' }));
  out.push(v1('min_price=1', { includeNullPrices: false }, 'set-order', { ...none, minPrice: 100 }, 0, 200));
  out.push(v1('set', { includeNullPrices: false }, 'set-order', none, 0, 200, { by: 'browse', setId }));

  const eu = parseRegion('EU')!.storageRegion;
  const v2 = (name: string, query: KeysetQuery, limit: number): Combination => ({
    name: `v2 ${name} limit=${limit}`,
    run: async (r) => {
      refuseAsTheApiDoes(query.browse, query.filter, { by: query.orderBy, minPrice: query.minPrice }, 0);
      return Promise.all([r.v2.page(query, limit), r.v2.count(query, COUNT_BUDGET_MS)]);
    },
  });
  const base: KeysetQuery = {
    browse,
    filter: { includeNullPrices: true, graded: 'exclude' },
    region: 'NA',
    direction: 'desc',
  };
  out.push(v2('none set-order', base, 200));
  out.push(v2('order_by=price', { ...base, orderBy: 'price' }, 200));
  out.push(v2('regions=EU set-order', { ...base, region: eu }, 200));
  out.push(v2('regions=EU order_by=price', { ...base, region: eu, orderBy: 'price' }, 200));
  out.push(v2('regions=EU min_price', { ...base, region: eu, minPrice: 100 }, 20));
  out.push(
    v2(
      'graded=only order_by=7d',
      { ...base, filter: { ...base.filter, graded: 'only' }, orderBy: '7d' },
      200,
    ),
  );
  out.push(v2('q=a', { ...base, browse: { ...browse, q: 'a' } }, 200));
  return out;
}

async function main(): Promise<number> {
  const { options } = parseArgs(process.argv.slice(2));
  const runs = Number(options.get('runs') ?? 3);
  const only = options.get('only');
  return withDatabase(async (ds) => {
    const [game] = await ds.query<{ game_id: string; n: number }[]>(
      'SELECT game_id, count(*)::int AS n FROM cards GROUP BY game_id ORDER BY n DESC LIMIT 1',
    );
    if (!game)
      throw new Error('the database holds no catalogue: load one first (npm run load -- --size full)');
    const [set] = await ds.query<{ set_id: string }[]>(
      `SELECT s.id AS set_id FROM cards c JOIN sets s ON s.uuid = c.set_uuid
       WHERE c.game_id = $1 GROUP BY s.id ORDER BY count(*) DESC LIMIT 1`,
      [game.game_id],
    );
    // A week before the latest observation (a delta sync's usual reach, past the cap on this
    // sample, whose every price moved that week), and the instant at most the cap's prices changed
    // after (see tools/bench/README.md: the sample's prices all change at one instant).
    const [latest] = await ds.query<{ t: number | null }[]>(
      'SELECT max(updated_at)::float8 AS t FROM variant_prices',
    );
    const week = Math.floor((latest?.t ?? Date.now() / 1000) - 7 * 86_400);
    const [atCap] = await ds.query<{ t: number | null }[]>(
      `SELECT updated_at::float8 AS t FROM variant_prices WHERE region = 'NA' ORDER BY updated_at DESC OFFSET $1 LIMIT 1`,
      [MAX_UPDATED_PRICES],
    );
    const recent = { week, atCap: Math.floor(atCap?.t ?? week) };
    const recorder = recordStatements(poolOf(ds));
    const repos: Repositories = { v1: new CardQueryRepository(ds), v2: new CardKeysetRepository(ds) };
    const rows: string[][] = [];
    const results: { name: string; statements: number; ms: number; buffers: number }[] = [];
    for (const c of combinations(game.game_id, set!.set_id, recent)) {
      if (typeof only === 'string' && !c.name.includes(only)) continue;
      // A combination refused with a 400 is measured by the statements it ran before refusing.
      const refused = await c.run(repos).then(
        () => false,
        (error: unknown) => {
          if (error instanceof DomainError && error.status === 400) return true;
          throw error;
        },
      );
      const statements = recorder.take();
      if (options.has('statements'))
        for (const s of statements)
          log('info', 'statement', { combination: c.name, text: s.text, values: s.values });
      const samples: Explained[] = [];
      for (let i = 0; i < runs; i++) {
        let total = { ms: 0, buffers: 0 };
        for (const s of statements) {
          const e = await explain(ds, s);
          total = { ms: total.ms + e.ms, buffers: total.buffers + e.buffers };
        }
        samples.push(total);
      }
      const result = {
        name: refused ? `${c.name} → 400` : c.name,
        statements: statements.length,
        ms: median(samples.map((s) => s.ms)),
        buffers: median(samples.map((s) => s.buffers)),
      };
      results.push(result);
      rows.push([result.name, String(result.statements), ms(result.ms), num(result.buffers)]);
      log('info', 'measured', result);
    }
    process.stdout.write(
      `worst card reads on game ${game.game_id} (${game.n} cards), median of ${runs} EXPLAIN (ANALYZE, BUFFERS) runs\n\n`,
    );
    process.stdout.write(`${formatTable(['combination', 'statements', 'server ms', 'buffers'], rows)}\n`);
    process.stdout.write(`${JSON.stringify({ runs, game: game.game_id, results })}\n`);
    return 0;
  }, 2);
}

runTool('worst-queries', main);
