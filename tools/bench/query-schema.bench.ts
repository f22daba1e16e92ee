/**
 * CPU cost of reading one request's query string into what the service asks for: the step every
 * request of both versions runs before any lookup (a whole lookup is ~350 µs of service CPU).
 * Each row feeds the same already-split query object (what Express's query parser hands a route)
 * to the built parser, in a loop, and reports the median over rounds of nanoseconds per call.
 *
 *   npm run bench:query-schema [-- --calls N] [-- --rounds N]
 *
 * Tools may not import app code (Nx tags): the parsers come from the built apps in dist/, loaded
 * at run time, as `npm run openapi` loads their documents.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../common/files';
import { formatTable, num } from './table';

type Raw = Record<string, unknown>;

interface Options {
  calls: number;
  rounds: number;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { calls: 50_000, rounds: 7 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2);
    const key = flag!.replace(/^--/, '');
    if (!(key in options)) throw new Error(`unknown argument ${argv[i]} (accepted: --calls, --rounds)`);
    const value = Number(inline ?? argv[++i]);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${key} needs a positive integer`);
    options[key as keyof Options] = value;
  }
  return options;
}

/** The most common v1 call: one card by its slug, in one condition, with a month of history. */
const V1_LOOKUP: Raw = {
  cardId: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare',
  condition: 'NM',
  priceHistoryDuration: '30d',
};

/**
 * Every parameter of GET /v1/cards (23) with two of the lists repeated: 25 values, the most a
 * well-formed v1 request reads. The identifiers are all set, so the precedence table runs in full.
 */
const V1_FULL: Raw = {
  q: 'black lotus',
  game: 'magic-the-gathering',
  set: 'magic-the-gathering-limited-edition-alpha',
  cardId: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare',
  variantId: 'd8ee383d-b80b-543c-a417-dba03eca7cf4',
  vendorId: '1042',
  opensetId: 'b0faa7f2-b547-42c4-a810-839da50dadfe',
  imagedbId: 'bd8fa327-dd41-4737-8f19-2cf5eb1f7cdd',
  vendorSkuId: '88212',
  number: '232',
  printing: ['Normal', 'Foil - Japanese'],
  language: ['English', 'japanese,French'],
  condition: 'NM,Lightly Played,mp',
  priceHistoryDuration: '90d',
  include_price_history: 'false',
  include_statistics: '7d,30d,allTime',
  include_null_prices: 'true',
  updated_after: '1767139200',
  limit: '50',
  offset: '100',
  orderBy: 'price',
  order: 'asc',
  min_price: '12.50',
};

/** The v2 equivalents: a lookup by UUID in two regions, and a graded browse with every option. */
const V2_LOOKUP: Raw = { card_id: '9b687c18-3204-583e-ba39-00de37c7b19c', regions: 'NA,EU' };
const V2_FULL: Raw = {
  regions: 'NA,EU,JP',
  graded: 'include',
  grading_company: 'PSA',
  grade: '10,9.5',
  include: 'periods.30d,price_history.30d',
  limit: '50',
  q: 'charizard',
  game: 'pokemon',
  set: 'pokemon-base-set',
  number: '4',
  language: 'English,Japanese',
  min_price: '100',
  order_by: '7d',
};

interface Row {
  readonly name: string;
  readonly raw: Raw;
  readonly parse: (raw: Raw) => unknown;
}

/** The built parser of each request, by the name it exports. */
function loadRows(): Row[] {
  const load = <T>(path: string): T => require(join(REPO_ROOT, 'dist', path)) as T;
  const v1 = load<{ parseCardsQuery(raw: Raw, maxLimit: number): unknown }>(
    'apps/api-v1/src/cards/dto/cards-query.schema.js',
  );
  const v2 = load<{ parseCardsV2Query(raw: Raw, maxLimit: number): unknown }>(
    'apps/api-v2/src/cards/dto/cards-v2-query.schema.js',
  );
  return [
    {
      name: 'v1 GET /v1/cards lookup (3 parameters)',
      raw: V1_LOOKUP,
      parse: (r) => v1.parseCardsQuery(r, 100),
    },
    { name: 'v1 GET /v1/cards full (25 values)', raw: V1_FULL, parse: (r) => v1.parseCardsQuery(r, 100) },
    {
      name: 'v2 GET /v2/cards lookup (2 parameters)',
      raw: V2_LOOKUP,
      parse: (r) => v2.parseCardsV2Query(r, 100),
    },
    {
      name: 'v2 GET /v2/cards full (13 parameters)',
      raw: V2_FULL,
      parse: (r) => v2.parseCardsV2Query(r, 100),
    },
  ];
}

/** Nanoseconds per call: the median of `rounds` timed loops, after one untimed loop warms the JIT. */
function measure(row: Row, { calls, rounds }: Options): { median: number; min: number } {
  let sink = 0;
  const loop = () => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (row.parse(row.raw) !== undefined) sink++;
    return Number(process.hrtime.bigint() - started) / calls;
  };
  loop();
  const samples = Array.from({ length: rounds }, loop).sort((a, b) => a - b);
  if (sink === 0) throw new Error(`${row.name} returned nothing`);
  return { median: samples[Math.floor(rounds / 2)]!, min: samples[0]! };
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  const results = loadRows().map((row) => ({ name: row.name, ...measure(row, options) }));
  process.stdout.write(
    `${formatTable(
      ['request', 'median ns/call', 'best ns/call'],
      results.map((r) => [r.name, num(r.median), num(r.min)]),
    )}\n`,
  );
  process.stdout.write(`${JSON.stringify({ options, results })}\n`);
}

main();
