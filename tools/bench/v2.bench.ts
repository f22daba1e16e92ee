import { parseArgs } from '../common/log';
import { benchFailed, percentile, Row, runBench } from './http-bench';

/**
 * api-v2 through the gateway on the loaded catalogue (run it on `full`): a single-card lookup (also
 * on one connection), a 20-card browse page with all periods, a 5-region lookup, and full cursor
 * walks of one set (100 cards a page, following `Link` to the end; the row's req/s is walks per
 * second and its latencies are whole walks), next to the floors answering the lookup's bytes.
 * `npm run bench:v2 -- [--duration 10] [--connections 16]`; DATABASE_URL selects the catalogue.
 */
async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const duration = Number(options.get('duration') ?? 10);
  const connections = Number(options.get('connections') ?? 16);
  await runBench('v2', 'api-v2', { duration, connections }, async (ctx) => {
    const cards: { uuid: string }[] = await ctx.ds.query(
      `SELECT c.uuid FROM cards c JOIN card_values cv ON cv.card_uuid = c.uuid ORDER BY md5(c.id) LIMIT 2000`,
    );
    const sets: { id: string; cards: number }[] = await ctx.ds.query(
      `SELECT s.id, count(*)::int AS cards FROM sets s JOIN cards c ON c.set_uuid = s.uuid GROUP BY s.id ORDER BY md5(s.id)`,
    );
    if (cards.length === 0)
      throw new Error('no priced cards: load a catalogue first (npm run load -- --size full)');
    let c = 0;
    let s = 0;
    const card = () => cards[c++ % cards.length]!.uuid;
    const set = () => sets[s++ % sets.length]!.id;
    const lookup = () => `/v2/cards?card_id=${card()}`;
    const sample = await fetch(`${ctx.gatewayUrl}${lookup()}`, { headers: { 'x-api-key': ctx.key() } });
    await ctx.floors(Buffer.from(await sample.arrayBuffer()));
    const rows: Record<string, Row> = {};
    rows['single-card lookup'] = await ctx.get(lookup);
    rows['single-card lookup, 1 connection'] = await ctx.get(lookup, 1);
    rows['20-card browse page, all periods'] = await ctx.get(
      () => `/v2/cards?set=${encodeURIComponent(set())}&limit=20&include=periods`,
    );
    rows['5-region lookup'] = await ctx.get(() => `/v2/cards?card_id=${card()}&regions=NA,EU,UK,JP,OCE`);
    rows['full cursor walk of one set (walks/s)'] = await walks(
      ctx.gatewayUrl,
      ctx.key,
      set,
      connections,
      duration,
    );
    const pages = sets.reduce((n, x) => n + Math.ceil(x.cards / 100), 0);
    process.stdout.write(`${JSON.stringify({ sets: sets.length, pagesPerFullCatalogueWalk: pages })}\n`);
    return rows;
  });
}

/** `workers` clients each walking whole sets page by page for `duration` seconds. */
async function walks(
  base: string,
  key: () => string,
  set: () => string,
  workers: number,
  duration: number,
): Promise<Row> {
  const times: number[] = [];
  let failures = 0;
  const end = Date.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        let path: string | null = `/v2/cards?set=${encodeURIComponent(set())}&limit=100&include=periods`;
        while (path) {
          const res: Response = await fetch(`${base}${path}`, { headers: { 'x-api-key': key() } });
          await res.arrayBuffer();
          if (res.status !== 200) {
            failures++;
            break;
          }
          path = res.headers.get('link')?.match(/<([^>]+)>; rel="next"/)?.[1] ?? null;
        }
        times.push(performance.now() - started);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return {
    rps: times.length / duration,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    non2xx: failures,
  };
}

main().catch(benchFailed);
