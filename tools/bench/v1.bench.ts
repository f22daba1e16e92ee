import { parseArgs } from '../common/log';
import { benchFailed, measure, Row, runBench } from './http-bench';

/**
 * api-v1 through the gateway on the loaded catalogue (run it on `full`): a single-card lookup
 * (also on one connection: latency without queueing, to compare catalogue sizes), a 200-item batch
 * and name searches with a typo (also on one connection), next to the floors answering the lookup's exact bytes.
 * `npm run bench:v1 -- [--duration 10] [--connections 16]`; DATABASE_URL selects the catalogue.
 */
async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const duration = Number(options.get('duration') ?? 10);
  const connections = Number(options.get('connections') ?? 16);
  await runBench('v1', 'api-v1', { duration, connections }, async (ctx) => {
    const cards: { id: string; name: string }[] = await ctx.ds.query(
      `SELECT c.id, c.name FROM cards c JOIN card_values cv ON cv.card_uuid = c.uuid ORDER BY md5(c.id) LIMIT 2000`,
    );
    if (cards.length === 0)
      throw new Error('no priced cards: load a catalogue first (npm run load -- --size full)');
    let c = 0;
    const pick = () => cards[c++ % cards.length]!;
    const lookup = () => `/v1/cards?cardId=${encodeURIComponent(pick().id)}`;
    const sample = await fetch(`${ctx.gatewayUrl}${lookup()}`, { headers: { 'x-api-key': ctx.key() } });
    await ctx.floors(Buffer.from(await sample.arrayBuffer()));
    const rows: Record<string, Row> = {};
    rows['single-card lookup'] = await ctx.get(lookup);
    rows['single-card lookup, 1 connection'] = await ctx.get(lookup, 1);
    rows['200-item batch'] = await measure({
      url: ctx.gatewayUrl,
      connections: Math.max(1, Math.floor(connections / 4)),
      duration,
      requests: [
        {
          method: 'POST',
          setupRequest: (r) => ({
            ...r,
            path: '/v1/cards?include_price_history=false',
            headers: { ...r.headers, 'x-api-key': ctx.key(), 'content-type': 'application/json' },
            body: JSON.stringify(Array.from({ length: 200 }, () => ({ cardId: pick().id }))),
          }),
        },
      ],
    });
    const search = () => {
      const name = pick().name;
      const typo = name.length > 4 ? name.slice(0, 2) + name.slice(3) : name; // drop the third letter
      return `/v1/cards?q=${encodeURIComponent(typo)}`;
    };
    rows['q search (name with a typo)'] = await ctx.get(search);
    rows['q search, 1 connection'] = await ctx.get(search, 1);
    return rows;
  });
}

main().catch(benchFailed);
