import { measureAlertEvaluation } from './alert-evaluation';
import { get, pool, send } from './bench-http';
import { FLOOR_PATH } from './floor-server';
import type { LoadResult, LoadScenario, WalkResult, WalkScenario } from './load-generator';
import { percentile, shuffled } from './sampling';
import { ms, num } from './table';

/**
 * The rows of `npm run bench:api`, one declarative entry each, in the order they are measured:
 * what a row requests (paths drawn over the whole catalogue, headers, bodies), on how many
 * connections, which Nest floor its `vs Nest` divides by, whose response cache it reads, and its
 * note. api.bench.ts starts the processes the selected rows need, runs them and reports. The rows
 * are described in tools/bench/README.md.
 */

/** One seed for the whole benchmark, so every run asks for the same cards in the same order. */
export const SEED = 20_260_101;
/** The slow static upstream's delay: about a v1 lookup's p50 at full under 32 connections. */
export const SLOW_UPSTREAM_MS = 60;
/** Cards whose median-sized lookup gives the floors' bytes. */
const MEDIAN_SAMPLE = 101;
/** Answers sampled for the median of a search or a page, the bytes of their rows' floors. */
const FLOOR_SAMPLE = 21;
const SEARCH_CONNECTIONS = 16;
const BATCH_CONNECTIONS = 4;
const BATCH_SIZE = 200;
const BATCH_SAMPLES = 5;
const BATCH_PATH = '/v1/cards?include_price_history=false';
const ETAG_SAMPLE = 1000;
const WALKS = 5;
const WALK_PAGE = 100;
/**
 * How many set pages the v2 page row draws from, the same at every catalogue size: with the
 * response cache on, a row drawing from every set compares hit rates (249 pages at `full`,
 * 4,332 at the marketplace's size), not what a page costs. Below `full`'s count so both sizes
 * draw the same number.
 */
const V2_PAGE_SETS = 200;

export interface BenchCard {
  readonly id: string;
  readonly uuid: string;
  readonly name: string;
}

export interface BenchSet {
  readonly id: string;
  readonly cards: number;
}

export type CatalogueName = 'full' | 'small';
export type Version = 'v1' | 'v2';
const VERSIONS: readonly Version[] = ['v1', 'v2'];

/** A catalogue as the rows see it: its cards, the bench's keys in it, the gateway serving it. */
export interface RowCatalogue {
  /** Every card, in a fixed random order: for Zipf, the first is the most popular. */
  readonly cards: readonly BenchCard[];
  readonly keys: readonly string[];
  /** Origin of the gateway in front of this catalogue's services. */
  readonly gateway: string;
}

/**
 * Processes a row can ask for beyond the services, the raw and the Nest floors (always there):
 * `forward` the two-hop floor, `slow` the raw floor answering after SLOW_UPSTREAM_MS, `hop` the
 * real gateway in front of the Nest floor (v1 routes) and of the slow floor, when there is one
 * (v2 routes).
 */
export type Upstream = 'raw' | 'nest' | 'forward' | 'slow' | 'hop';

/** What the rows are given to build their requests. */
export interface RowContext {
  readonly full: RowCatalogue;
  catalogue(name: CatalogueName): RowCatalogue;
  /** Origin of one of the floors' processes; throws if no selected row asked for it. */
  upstream(name: Upstream): string;
  /** The bodies of GETs of `paths` through the full catalogue's gateway, each checked for a 200. */
  bodiesOf(paths: readonly string[]): Promise<Buffer[]>;
  /** The full catalogue's sets with their numbers of cards, by id. */
  sets(): Promise<readonly BenchSet[]>;
  /** The full catalogue's database, for rows that time work of their own (`task`). */
  readonly databaseUrl: string;
}

/** A row's load scenario, less what the run sets: seed, seconds and connections. */
export type Requests = Omit<LoadScenario, 'kind' | 'seed' | 'duration' | 'connections'>;

/**
 * A Nest floor sending a row's own bytes, measured right before the first row that divides by it,
 * with that row's connections (and, for a POST, its request bodies): the ratios are to the
 * Nest floor with the same bytes, and a 425 KB search answer or a 2.7 MB batch costs more to send
 * than the median lookup whatever serves it.
 */
export interface SameBytesFloor {
  readonly id: string;
  /** What its bytes are the median of: its label is `floor: Nest on Express, <what>`. */
  readonly what: string;
  readonly body: (c: RowContext, requests: Requests) => Promise<Buffer>;
}

interface RowBase {
  /** Its name in `--rows` (several rows may share one); none: it always runs. */
  readonly select?: string;
  /** Its key in the JSON line. */
  readonly id: string;
  readonly label: string;
  /** The catalogue whose services it measures: full unless said. */
  readonly catalogue?: CatalogueName;
  readonly needs?: readonly Upstream[];
}

/** A row measured by the load generator: `--warmup` seconds, then `--duration` seconds measured. */
export interface LoadRow extends RowBase {
  readonly kind: 'load';
  /** Default: `--connections`. */
  readonly connections?: number;
  /** Its requests; undefined when there is nothing to measure (`unavailable` says why). */
  readonly requests: (c: RowContext) => Requests | undefined | Promise<Requests | undefined>;
  readonly unavailable?: { readonly note: string; readonly why: string };
  /** The service whose response-cache hit ratio the row reports. */
  readonly cache?: Version;
  /** A route whose server-side p95 (the service's own histogram, to its bucket bound) the row reports. */
  readonly serverRoute?: { readonly service: Version; readonly route: string };
  /** The floor its `vs Nest` divides by; none: the lookup floor (`floor-nest`). */
  readonly floor?: SameBytesFloor;
  readonly note?: string | ((m: { requests: Requests; result: LoadResult }) => string);
}

export type WalkRequests = Omit<WalkScenario, 'kind' | 'walks'>;

/** A row of whole cursor walks, one page after another: one unmeasured walk, then `walks`. */
export interface WalkRow extends RowBase {
  readonly kind: 'walk';
  readonly walks: number;
  readonly walk: (c: RowContext) => Promise<{ requests: WalkRequests; set: BenchSet }>;
  readonly note: (set: BenchSet, result: WalkResult) => string;
}

/** A row that times work of its own on the full catalogue's database (no requests): its p50 and note. */
export interface TaskRow extends RowBase {
  readonly kind: 'task';
  readonly run: (c: RowContext) => Promise<{ readonly p50: number; readonly note: string }>;
}

export type RowSpec = LoadRow | WalkRow | TaskRow;

export const v1Lookup = (card: { id: string }) => `/v1/cards?cardId=${encodeURIComponent(card.id)}`;
export const v2Lookup = (card: { uuid: string }) => `/v2/cards/${card.uuid}`;
const LOOKUP = { v1: v1Lookup, v2: v2Lookup } as const;

/**
 * The cards whose lookups give the floors' bytes: from the tail of the popularity order, so that
 * Zipf rows find them uncached.
 */
export const floorSampleCards = (cards: readonly BenchCard[]) => cards.slice(-MEDIAN_SAMPLE);

/** The index of the median-sized of some bodies. */
export function medianIndex(bodies: readonly Buffer[]): number {
  const bySize = bodies.map((_, i) => i).sort((a, b) => bodies[a]!.length - bodies[b]!.length);
  return bySize[Math.floor(bySize.length / 2)]!;
}

const medianBody = (bodies: readonly Buffer[]): Buffer => bodies[medianIndex(bodies)]!;

/** A floor of the median of FLOOR_SAMPLE of the row's own paths, drawn with `seed`. */
const sampledFloor = (id: string, what: string, seed: number): SameBytesFloor => ({
  id,
  what,
  body: async (c, r) => medianBody(await c.bodiesOf(shuffled(r.paths, seed).slice(0, FLOOR_SAMPLE))),
});

/**
 * The v2 lookup's floor: v2 answers are about two thirds of v1's, so their rows get a floor of
 * their own, from the same cards as the lookup floor's.
 */
const V2_LOOKUP_FLOOR: SameBytesFloor = {
  id: 'floor-v2-lookup',
  what: 'v2 lookup',
  body: async (c) => medianBody(await c.bodiesOf(floorSampleCards(c.full.cards).map(v2Lookup))),
};
const LOOKUP_FLOOR: Record<Version, SameBytesFloor | undefined> = { v1: undefined, v2: V2_LOOKUP_FLOOR };

/** Any card of a catalogue's lookups, through its gateway. */
const lookups = (cat: RowCatalogue, v: Version, distribution: 'uniform' | 'zipf' = 'uniform'): Requests => ({
  url: cat.gateway,
  paths: cat.cards.map(LOOKUP[v]),
  distribution,
  keys: cat.keys,
});

/** The same bytes as the lookup floor, from one of the floors' processes. */
const atFloor =
  (upstream: Upstream) =>
  (c: RowContext): Requests => ({ url: c.upstream(upstream), paths: [FLOOR_PATH], distribution: 'cycle' });

const anyOf = (what: string) => (m: { requests: Requests }) =>
  `any of ${num(m.requests.paths.length)} ${what}`;

/** Every distinct word of 3 or more letters of the card names, sorted. */
const nameWords = (cards: readonly BenchCard[]) =>
  [...new Set(cards.flatMap((c) => c.name.toLowerCase().match(/\p{L}{3,}/gu) ?? []))].sort();

/**
 * What a person types into a name field before picking: the first 2 to 8 characters of a name
 * (of one of its words, one time in three), each card once, so the prefixes follow the catalogue's
 * names, short ones repeating as they do when people type.
 */
function typedPrefixes(cards: readonly BenchCard[]): string[] {
  return cards.map((card, i) => {
    const words = card.name.split(' ').filter((w) => w.length >= 2);
    const from = i % 3 === 2 && words.length > 1 ? words[1 + (i % (words.length - 1))]! : card.name;
    // At least 2 characters besides spaces, as the API asks.
    let length = 2 + (i % 7);
    while (from.slice(0, length).trim().length < 2 && length < from.length) length += 1;
    return from.slice(0, length).trim();
  });
}

/**
 * The lookups of ETAG_SAMPLE random cards, each with the `If-None-Match` of its ETag (fetched
 * first); undefined when the first 20 lookups carry no ETag.
 */
async function taggedLookups(c: RowContext, v: Version): Promise<Requests | undefined> {
  const { gateway, keys } = c.full;
  const sample = shuffled(c.full.cards.map(LOOKUP[v]), SEED + 1)
    .slice(0, ETAG_SAMPLE)
    .map((path, i) => ({ path, i }));
  const tagOf = async ({ path, i }: { path: string; i: number }) => {
    const res = await get(`${gateway}${path}`, { 'x-api-key': keys[i % keys.length]! });
    const etag = res.headers['etag'];
    return res.status === 200 && typeof etag === 'string' ? { path, etag } : undefined;
  };
  const probe = await pool(sample.slice(0, 20), 4, tagOf);
  if (!probe.some(Boolean)) return undefined;
  const tagged = [...probe, ...(await pool(sample.slice(20), 8, tagOf))].filter(
    (t): t is { path: string; etag: string } => t !== undefined,
  );
  return {
    url: gateway,
    paths: tagged.map((t) => t.path),
    pathHeaders: tagged.map((t) => ({ 'if-none-match': t.etag })),
    okStatuses: [200, 304],
    distribution: 'uniform',
    keys,
  };
}

/** The median answer of BATCH_SAMPLES batches of the row's size, POSTed as the row posts them. */
async function batchAnswer(c: RowContext, r: Requests): Promise<Buffer> {
  const { ids, size } = r.batch!;
  const bodies = await pool(
    Array.from({ length: BATCH_SAMPLES }, (_, i) => shuffled(ids, SEED + 3 + i).slice(0, size)),
    1,
    async (chosen) => {
      const res = await send(
        'POST',
        `${c.full.gateway}${BATCH_PATH}`,
        { 'x-api-key': c.full.keys[0]! },
        chosen.map((cardId) => ({ cardId })),
      );
      if (res.status !== 200) throw new Error(`sample batch answered ${res.status}`);
      return res.body;
    },
  );
  return medianBody(bodies);
}

/** The floors: the same bytes (the median v1 lookup) from ever more of the real path. */
const FLOOR_ROWS: readonly RowSpec[] = [
  { kind: 'load', id: 'floor-node', label: 'floor: raw node:http', requests: atFloor('raw') },
  { kind: 'load', id: 'floor-nest', label: 'floor: Nest on Express', requests: atFloor('nest') },
  {
    kind: 'load',
    select: 'two-hop',
    id: 'two-hop',
    label: 'floor: two hops, Nest → Nest',
    needs: ['forward'],
    requests: atFloor('forward'),
  },
  {
    kind: 'load',
    select: 'gateway-hop',
    id: 'gateway-hop',
    label: 'gateway hop → static upstream',
    needs: ['hop'],
    requests: (c) => ({ ...lookups(c.full, 'v1'), url: c.upstream('hop') }),
  },
  {
    // The hop gateway's v2 routes go to the slow floor: one gateway measures its hop in front of a
    // fast and of a slow upstream.
    kind: 'load',
    select: 'gateway-hop-slow',
    id: 'gateway-hop-slow',
    label: `gateway hop → upstream after ${SLOW_UPSTREAM_MS} ms`,
    needs: ['slow', 'hop'],
    requests: (c) => ({ ...lookups(c.full, 'v2'), url: c.upstream('hop') }),
    note: 'the same bytes; throughput capped by the delay: read its CPU line',
  },
];

/** Lookups through the gateway of `full`, each request any card of the whole catalogue. */
const LOOKUP_ROWS: readonly RowSpec[] = [
  ...VERSIONS.map((v): LoadRow => ({
    kind: 'load',
    select: `${v}-uniform`,
    id: `${v}-uniform`,
    label: `${v} lookup, uniform`,
    cache: v,
    floor: LOOKUP_FLOOR[v],
    requests: (c) => lookups(c.full, v),
    note: anyOf('cards'),
  })),
  {
    // A filtered lookup: PostgreSQL plans its statement for its values unless the filter's list is
    // read by position (207a76c).
    kind: 'load',
    select: 'v1-condition',
    id: 'v1-condition',
    label: 'v1 lookup, uniform, condition=NM',
    cache: 'v1',
    requests: (c) => {
      const requests = lookups(c.full, 'v1');
      return { ...requests, paths: requests.paths.map((path) => `${path}&condition=NM`) };
    },
    note: anyOf('cards'),
  },
  ...VERSIONS.map((v): LoadRow => ({
    kind: 'load',
    select: `${v}-gzip`,
    id: `${v}-gzip`,
    label: `${v} lookup, uniform, gzip/br`,
    cache: v,
    requests: (c) => ({ ...lookups(c.full, v), headers: { 'accept-encoding': 'gzip, br' } }),
    note: 'Accept-Encoding: gzip, br',
  })),
  ...VERSIONS.map((v): LoadRow => ({
    kind: 'load',
    select: `${v}-zipf`,
    id: `${v}-zipf`,
    label: `${v} lookup, Zipf s=1`,
    cache: v,
    floor: LOOKUP_FLOOR[v],
    requests: (c) => lookups(c.full, v, 'zipf'),
    note: 'popularity over a fixed random order',
  })),
  ...VERSIONS.map((v): LoadRow => ({
    kind: 'load',
    select: `${v}-etag`,
    id: `${v}-etag`,
    label: `${v} lookup, If-None-Match`,
    cache: v,
    // A revalidation is worth it against the lookup it saves: the floor of that lookup's bytes.
    floor: LOOKUP_FLOOR[v],
    requests: (c) => taggedLookups(c, v),
    unavailable: { note: 'n/a (no ETag)', why: 'no ETag on lookups' },
    note: ({ requests, result }) =>
      `${num((100 * (result.statuses['304'] ?? 0)) / Math.max(1, result.requests), 1)}% 304 over ${num(requests.paths.length)} cards`,
  })),
];

/** Answers larger than a lookup, each with a floor of its own bytes. */
const LISTING_ROWS: readonly RowSpec[] = [
  {
    kind: 'load',
    select: 'v1-search',
    id: 'v1-search',
    label: 'v1 search q=<word>',
    connections: SEARCH_CONNECTIONS,
    cache: 'v1',
    floor: sampledFloor('floor-search', 'search answer', SEED + 2),
    requests: (c) => ({
      url: c.full.gateway,
      paths: nameWords(c.full.cards).map((w) => `/v1/cards?q=${encodeURIComponent(w)}`),
      distribution: 'uniform',
      keys: c.full.keys,
    }),
    note: anyOf('words of card names'),
  },
  {
    kind: 'load',
    select: 'v1-autocomplete',
    id: 'v1-autocomplete',
    label: 'v1 autocomplete q=<typed>',
    connections: SEARCH_CONNECTIONS,
    cache: 'v1',
    serverRoute: { service: 'v1', route: '/v1/cards/autocomplete' },
    requests: (c) => ({
      url: c.full.gateway,
      paths: typedPrefixes(c.full.cards).map((q) => `/v1/cards/autocomplete?q=${encodeURIComponent(q)}`),
      distribution: 'uniform',
      keys: c.full.keys,
    }),
    note: anyOf('typed name prefixes'),
  },
  {
    kind: 'load',
    select: 'v1-batch',
    id: 'v1-batch',
    label: `v1 batch POST ${BATCH_SIZE} cards`,
    connections: BATCH_CONNECTIONS,
    floor: { id: 'floor-batch', what: 'batch answer', body: batchAnswer },
    requests: (c) => ({
      url: c.full.gateway,
      method: 'POST',
      paths: [BATCH_PATH],
      distribution: 'cycle',
      batch: { ids: c.full.cards.map((card) => card.id), size: BATCH_SIZE },
      keys: c.full.keys,
    }),
    note: 'random cards, include_price_history=false',
  },
  {
    kind: 'load',
    select: 'v2-page',
    id: 'v2-page',
    label: 'v2 page of 20, all periods',
    connections: 1,
    floor: sampledFloor('floor-v2-page', 'v2 page', SEED + 4),
    requests: async (c) => ({
      url: c.full.gateway,
      paths: shuffled(
        (await c.sets()).filter((s) => s.cards >= 20),
        SEED + 5,
      )
        .slice(0, V2_PAGE_SETS)
        .map((s) => `/v2/cards?set=${encodeURIComponent(s.id)}&limit=20&include=periods`),
      distribution: 'uniform',
      keys: c.full.keys,
    }),
    note: ({ requests }) => `set=<any of ${requests.paths.length} drawn sets>&limit=20&include=periods`,
  },
  {
    kind: 'walk',
    select: 'v2-walk',
    id: 'v2-walk',
    label: 'v2 cursor walk, largest set',
    walks: WALKS,
    walk: async (c) => {
      const set = [...(await c.sets())].sort((a, b) => b.cards - a.cards || a.id.localeCompare(b.id))[0]!;
      const firstPath = `/v2/cards?set=${encodeURIComponent(set.id)}&limit=${WALK_PAGE}&include=periods`;
      return { set, requests: { url: c.full.gateway, firstPath, keys: c.full.keys } };
    },
    note: (set, w) =>
      `${set.id}: ${w.pages} pages of ${WALK_PAGE}; p50 = ms per walk (${w.walks} walks, ${ms(w.min)}-${ms(w.max)} ms)`,
  },
];

/**
 * Uniform lookups on 1 connection on each catalogue, each served by its own services: does a
 * lookup's own cost grow with the catalogue? The small stack runs without a response cache and is
 * warmed first (api.bench.ts).
 */
const SMALL_VS_FULL_ROWS: readonly RowSpec[] = VERSIONS.flatMap((v) =>
  (['full', 'small'] as const).map((name): LoadRow => ({
    kind: 'load',
    select: 'small-vs-full',
    id: `${v}-uniform-1conn-${name}`,
    label: `${v} lookup, uniform, ${name}`,
    catalogue: name,
    connections: 1,
    cache: v,
    requests: (c) => lookups(c.catalogue(name), v),
    note: (m) => `1 connection, ${anyOf('cards')(m)}`,
  })),
);

/**
 * Price alerts (issue 26): 100,000 alerts evaluated after each of five simulated imports, in a
 * transaction rolled back; the p50 of the five evaluations.
 */
const ALERT_ROWS: readonly RowSpec[] = [
  {
    kind: 'task',
    select: 'alert-eval',
    id: 'alert-eval',
    label: 'alert evaluation, 100,000 alerts',
    run: async (c) => {
      const r = await measureAlertEvaluation(c.databaseUrl);
      return {
        p50: percentile(
          [...r.ms].sort((a, b) => a - b),
          0.5,
        ),
        note: `${num(r.alerts)} alerts after each of ${r.ms.length} imports moving 10% of prices: ${r.ms
          .map((m) => ms(m))
          .join(', ')}; fired ${r.fired.join('/')}, cleared ${r.cleared.join('/')}`,
      };
    },
  },
];

/** Every row, in the order they are measured. */
export const ROWS: readonly RowSpec[] = [
  ...FLOOR_ROWS,
  ...LOOKUP_ROWS,
  ...LISTING_ROWS,
  ...SMALL_VS_FULL_ROWS,
  ...ALERT_ROWS,
];

/** The names `--rows` takes, in the table's order. */
export const ROW_NAMES: readonly string[] = [
  ...new Set(ROWS.flatMap((r) => (r.select === undefined ? [] : [r.select]))),
];

/** The rows to run for a selection of `--rows` names. */
export const selectedRows = (names: ReadonlySet<string>): RowSpec[] =>
  ROWS.filter((r) => r.select === undefined || names.has(r.select));
