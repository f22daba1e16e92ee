import { join } from 'node:path';
import type { BrowseSelector, CardOrder, KeysetQuery, VariantFilter } from '@tcg/domain';
import { v1JoinedJson, v2JoinedJson } from '@tcg/rendering';
import { joinedRead, seriesRead } from '../../testing/card-reads';
import type { DataSource } from 'typeorm';
import {
  expectSqlSnapshot,
  itMatchesSqlSnapshots,
  type SentStatement,
  SNAPSHOT_CARD_A as CARD_A,
  SNAPSHOT_CARD_B as CARD_B,
  SNAPSHOT_VARIANT_A as VARIANT_A,
  sqlCase,
  type SqlCase,
  statementCase,
} from '../../testing/sql-snapshot';
import { systemIdentifierStatement, type ReadTarget } from './read-replicas';
import { CardKeysetRepository } from './card-keyset.repository';
import { CardQueryRepository } from './card-query.repository';
import { TypeOrmCatalogueRepository } from './catalogue.repository';
import {
  dropDocumentsOfVariants,
  refreshCardDocuments,
  refreshDocumentsOfVariants,
  renderUndocumentedCards,
} from '../documents';
import type { Connection } from '../sql/run';

// The statements the hot reads send, for a fixed set of requests, compared with the files under
// `sql/` (immich's `server/src/queries/*.sql`): a change to a read shows in review as a change of
// its SQL, and a change that was not meant to change the SQL fails here. No database: the reads
// run against a recording connection that answers every statement with the same two rows.
// `npm run sql:snapshots` rewrites the files.

const SNAPSHOTS = join(__dirname, 'sql');

const T = 1_790_000_000;

/**
 * Every column any read asks for, typed as node-postgres returns it; a page's window count and
 * rank only where the statement selects them, as the reads tell from their presence whether the
 * page was counted.
 */
function answerRow(card: string, text: string, values: readonly unknown[]): Record<string, unknown> {
  return {
    // Nothing is priced in JP: card_tops then reads its region `*`.
    priced: values[0] !== 'JP',
    over: false,
    ids: [3, 7],
    n: 42,
    ...(/ AS "?total"?\b/i.test(text) ? { total: 42 } : {}),
    ...(/ AS "?rn"?\b/i.test(text) ? { rn: 1000 } : {}),
    uuid: card,
    id: 'card-slug',
    game_id: 'mtg',
    game_name: 'Magic',
    set_id: 'set-slug',
    set_name: 'Set',
    name: 'Card',
    cards: 2,
    number: '1',
    rarity: null,
    details: null,
    vendor_id: null,
    openset_id: null,
    imagedb_id: null,
    sealed: false,
    variants: '{}',
    ordinal: 0,
    card_uuid: card,
    variant_uuid: VARIANT_A,
    month_start: String(T - 86_400),
    offsets: '{0}',
    prices: '{100}',
    cardUuid: card,
    type: 'raw',
    condition: 'NM',
    printing: 'Normal',
    language: 'English',
    vendorSkuId: null,
    gradingCompany: null,
    grade: null,
    gradeLabel: null,
    gradingQualifier: null,
    updatedAt: T,
    stats: '{}',
    v1Stats: '{}',
    v1History: '[]',
    v2Price: '{}',
    v2Periods: '{}',
    v2History: '[]',
    others: null,
    k0: 'a',
    k1: 'b',
    k2: 'c',
    cards_count: 10,
    variants_count: 20,
    sealed_count: 1,
    sets_count: 2,
    last_updated: String(T),
    value_cents: '12345',
    value_7d_ago_cents: null,
    sources: null,
    code: 'SET',
    release_date: '2024-01-01',
  };
}

type Statement = SentStatement;

/**
 * A read source whose one connection records each statement and answers it with two rows (none
 * for transaction control): enough for every read to go on to its next statement.
 */
function recordingSource(statements: Statement[]): ReadTarget {
  const answer = (text: string, values: readonly unknown[] = []) => {
    statements.push({ text, values });
    return /^(BEGIN|COMMIT|ROLLBACK)\b/.test(text)
      ? []
      : [answerRow(CARD_A, text, values), answerRow(CARD_B, text, values)];
  };
  const client = {
    query: (q: string | { text: string; values: unknown[] }) =>
      Promise.resolve({ rows: typeof q === 'string' ? answer(q) : answer(q.text, q.values) }),
    release: () => undefined,
    // preparedQuery listens for a connection lost between its statements while it holds one.
    on: () => undefined,
    off: () => undefined,
  };
  const ds = {
    driver: { master: { connect: () => Promise.resolve(client) } },
    query: (text: string, values?: unknown[]) => Promise.resolve(answer(text, values)),
    createQueryRunner: () => ({
      connect: () => Promise.resolve(client),
      release: () => Promise.resolve(),
    }),
  } as unknown as DataSource;
  return { read: (run) => run(ds) };
}

interface Reads {
  readonly cards: CardQueryRepository;
  readonly keyset: CardKeysetRepository;
  readonly catalogue: TypeOrmCatalogueRepository;
  /** A transaction's client, for the writes that render card documents. */
  readonly client: Connection;
}

type Case = readonly [name: string, run: (r: Reads) => Promise<unknown>];

const V1_JSON = v1JoinedJson(true);
const V1_BARE_JSON = v1JoinedJson(false);
const V2_JSON = v2JoinedJson('NA', 'USD', true, true);
const V2_EU_JSON = v2JoinedJson('EU', 'EUR', true, false);
const V1 = { includeNullPrices: false } as const satisfies VariantFilter;
const V1_SEARCH = { includeNullPrices: true } as const satisfies VariantFilter;
const NM = { ...V1, conditions: ['Near Mint'] } as const satisfies VariantFilter;
const V2 = { includeNullPrices: true, graded: 'exclude' } as const satisfies VariantFilter;
const BY_SET: CardOrder = { direction: 'desc' };
const GAME: BrowseSelector = { by: 'browse', gameId: 'mtg' };
const SET: BrowseSelector = { by: 'browse', gameId: 'mtg', setId: 'mtg-lea' };
const SEARCH: BrowseSelector = { by: 'browse', q: 'Lightning Bolt' };
const PAGE = { limit: 2, offset: 0 };
const DEEP = { limit: 2, offset: 400 };
const STATS_READ = { stats: true, parts: [] };
const V1_READ = { stats: false, parts: ['v1Stats', 'v1History'] as const };

/** v1 GET /v1/cards with default options: the page and its cards joined in SQL. */
const v1Page =
  (
    selector: Parameters<CardQueryRepository['findCards']>[0],
    filter: VariantFilter = V1,
    page = PAGE,
    order: CardOrder = BY_SET,
  ) =>
  (r: Reads) =>
    r.cards.findCards(selector, filter, page, order, joinedRead(V1_JSON));

const keyset = (browse: BrowseSelector, rest: Partial<KeysetQuery> = {}): KeysetQuery => ({
  browse,
  filter: V2,
  region: 'NA',
  direction: 'desc',
  ...rest,
});

const GROUPS: Readonly<Record<string, readonly Case[]>> = {
  // GET /v1/cards (CardQueryRepository.findCards: joined with default options, else with series).
  'card-page': [
    ['lookup by card id (UUID)', v1Page({ by: 'cardId', value: CARD_A })],
    ['lookup by card id (slug)', v1Page({ by: 'cardId', value: 'lightning-bolt-lea' })],
    [
      'lookups by card id (UUID), two at once',
      (r) =>
        Promise.all([v1Page({ by: 'cardId', value: CARD_A })(r), v1Page({ by: 'cardId', value: CARD_B })(r)]),
    ],
    ['lookup by card id, condition', v1Page({ by: 'cardId', value: CARD_A }, NM)],
    ['lookup by variant id', v1Page({ by: 'variantId', value: VARIANT_A })],
    ['lookup by vendor SKU', v1Page({ by: 'vendorSkuId', value: '123456' })],
    ['lookup by vendor id', v1Page({ by: 'vendorId', value: '98765' })],
    [
      'lookup by card id, min_price',
      v1Page({ by: 'cardId', value: CARD_A }, V1, PAGE, { ...BY_SET, minPrice: 100 }),
    ],
    [
      'lookup by card id, past the first page',
      v1Page({ by: 'cardId', value: CARD_A }, V1, { limit: 2, offset: 2 }),
    ],
    ['browse game', v1Page(GAME)],
    ['browse game, unpriced included', v1Page(GAME, { includeNullPrices: true })],
    ['browse set', v1Page(SET)],
    ['browse set and number', v1Page({ ...SET, number: '161' })],
    ['browse game, condition', v1Page(GAME, NM)],
    ['browse set, condition and printing', v1Page(SET, { ...NM, printings: ['foil'] })],
    ['browse game, language', v1Page(GAME, { ...V1, languages: ['English'] })],
    ['search', v1Page(SEARCH, V1_SEARCH)],
    [
      'search in a game, condition',
      v1Page({ ...SEARCH, gameId: 'mtg' }, { ...V1_SEARCH, conditions: ['Near Mint'] }),
    ],
    ['search, deep offset', v1Page(SEARCH, V1_SEARCH, DEEP)],
    ['browse game, sorted by price', v1Page(GAME, V1, PAGE, { by: 'price', direction: 'desc' })],
    ['browse game, sorted by 7d ascending', v1Page(GAME, V1, PAGE, { by: '7d', direction: 'asc' })],
    ['browse game, min_price', v1Page(GAME, V1, PAGE, { ...BY_SET, minPrice: 500 })],
    ['browse set, condition, sorted by price', v1Page(SET, NM, PAGE, { by: 'price', direction: 'desc' })],
    ['search, sorted by price', v1Page(SEARCH, V1_SEARCH, PAGE, { by: 'price', direction: 'desc' })],
    ['browse game, updated_after', v1Page(GAME, { ...V1, updatedAfter: T })],
    ['browse game, updated_after, deep offset', v1Page(GAME, { ...V1, updatedAfter: T }, DEEP)],
    ['browse game, deep offset', v1Page(GAME, V1, DEEP)],
    ['browse game, condition, deep offset', v1Page(GAME, NM, DEEP)],
    [
      'browse set, condition, sorted by price, deep offset',
      v1Page(SET, NM, DEEP, { by: 'price', direction: 'desc' }),
    ],
    ['browse game, sorted by price, deep offset', v1Page(GAME, V1, DEEP, { by: 'price', direction: 'desc' })],
    [
      'browse game, in EU (not summarised)',
      (r) => r.cards.findCards(GAME, V1, PAGE, BY_SET, joinedRead(V1_JSON, 'EU')),
    ],
    [
      'browse game, without history',
      (r) => r.cards.findCards(GAME, V1, PAGE, BY_SET, joinedRead(V1_BARE_JSON)),
    ],
    [
      'browse game, rendered per request',
      (r) => r.cards.findCards(GAME, V1, PAGE, BY_SET, seriesRead(STATS_READ)),
    ],
    [
      'lookup by vendor SKU, rendered per request',
      (r) => r.cards.findCards({ by: 'vendorSkuId', value: '123456' }, V1, PAGE, BY_SET, seriesRead(V1_READ)),
    ],
    [
      'search, deep offset, rendered per request',
      (r) => r.cards.findCards(SEARCH, V1_SEARCH, DEEP, BY_SET, seriesRead(STATS_READ)),
    ],
  ],
  // The cards of a page, a batch or a v2 lookup, by UUID or reference.
  'card-lookup': [
    ['v2 card by UUID', (r) => r.cards.findJoinedCard(CARD_A, V2, 'NA', V2_JSON)],
    ['v2 card by slug', (r) => r.cards.findJoinedCard('lightning-bolt-lea', V2, 'NA', V2_JSON)],
    [
      'v2 card by UUID, graded PSA 10',
      (r) =>
        r.cards.findJoinedCard(
          CARD_A,
          { ...V2, graded: 'only', gradingCompany: 'PSA', grades: [10, null] },
          'NA',
          V2_JSON,
        ),
    ],
    ['v2 card by UUID, EU market', (r) => r.cards.findJoinedCard(CARD_A, V2, 'EU', V2_EU_JSON)],
    [
      'v2 cards by UUID, two lookups at once',
      (r) =>
        Promise.all([
          r.cards.findJoinedCard(CARD_A, V2, 'NA', V2_JSON),
          r.cards.findJoinedCard(CARD_B, V2, 'NA', V2_JSON),
        ]),
    ],
    [
      'v2 cards by slug, two lookups at once',
      (r) =>
        Promise.all([
          r.cards.findJoinedCard('lightning-bolt-lea', V2, 'NA', V2_JSON),
          r.cards.findJoinedCard('black-lotus-lea', V2, 'NA', V2_JSON),
        ]),
    ],
    ['v2 page of cards', (r) => r.cards.loadCards([CARD_A, CARD_B], V2, joinedRead(V2_JSON))],
    ['v2 one card', (r) => r.cards.loadCards([CARD_A], V2, joinedRead(V2_JSON))],
    [
      'v2 one card, by variant id',
      (r) =>
        r.cards.loadCards(
          [CARD_A],
          { includeNullPrices: true, graded: 'include' },
          joinedRead(V2_JSON),
          VARIANT_A,
        ),
    ],
    [
      'v1 batch of whole cards',
      (r) => r.cards.loadCards([CARD_A, CARD_B], V1_SEARCH, joinedRead(V1_BARE_JSON)),
    ],
    [
      'v1 batch, rendered per request',
      (r) => r.cards.loadCards([CARD_A, CARD_B], { includeNullPrices: true }, seriesRead(STATS_READ)),
    ],
    [
      'v2 cards in several markets',
      (r) =>
        r.cards.loadCards(
          [CARD_A, CARD_B],
          V2,
          seriesRead({ stats: true, parts: ['v2Price'] }, ['NA', 'EU', 'JP']),
        ),
    ],
    [
      'v2 card by variant id, rendered per request',
      (r) =>
        r.cards.loadCards(
          [CARD_A],
          { includeNullPrices: true, graded: 'include' },
          seriesRead(STATS_READ),
          VARIANT_A,
        ),
    ],
  ],
  'resolve-identifiers': [
    [
      'batch of every identifier',
      (r) =>
        r.cards.resolveIdentifiers([
          { ordinal: 0, by: 'cardId', value: CARD_A },
          { ordinal: 1, by: 'cardId', value: 'lightning-bolt-lea' },
          { ordinal: 2, by: 'variantId', value: VARIANT_A },
          { ordinal: 3, by: 'vendorSkuId', value: '123456' },
          { ordinal: 4, by: 'vendorId', value: '98765' },
          { ordinal: 5, by: 'opensetId', value: 'LEA-161' },
          { ordinal: 6, by: 'imagedbId', value: 'img-1' },
        ]),
    ],
  ],
  'price-history': [
    [
      'history of two variants',
      (r) =>
        r.cards.priceHistory(
          new Map([
            [VARIANT_A, T - 30 * 86_400],
            [CARD_B, T],
          ]),
          'NA',
        ),
    ],
  ],
  // GET /v2/cards browse and search (CardKeysetRepository.page and count).
  'card-keyset': [
    ['browse game, first page', (r) => r.keyset.page(keyset(GAME), 2)],
    [
      'browse game, next page',
      (r) => r.keyset.page(keyset(GAME), 2, { key: ['a', CARD_A], backward: false }),
    ],
    [
      'browse game, previous page',
      (r) => r.keyset.page(keyset(GAME), 2, { key: ['a', CARD_A], backward: true }),
    ],
    [
      'browse set, condition',
      (r) => r.keyset.page(keyset(SET, { filter: { ...V2, conditions: ['Near Mint'] } }), 2),
    ],
    ['search', (r) => r.keyset.page(keyset(SEARCH), 2)],
    [
      'search, next page',
      (r) => r.keyset.page(keyset(SEARCH), 2, { key: ['0.5', 'a', CARD_A], backward: false }),
    ],
    ['browse game, sorted by price', (r) => r.keyset.page(keyset(GAME, { orderBy: 'price' }), 2)],
    [
      'browse game, sorted by price ascending, next page',
      (r) =>
        r.keyset.page(keyset(GAME, { orderBy: 'price', direction: 'asc' }), 2, {
          key: ['1', CARD_A],
          backward: false,
        }),
    ],
    ['browse game, min_price', (r) => r.keyset.page(keyset(GAME, { minPrice: 500 }), 2)],
    [
      'browse game in JP (nothing priced), sorted by price',
      (r) => r.keyset.page(keyset(GAME, { region: 'JP', orderBy: 'price' }), 2),
    ],
    [
      'browse set, condition, sorted by price',
      (r) =>
        r.keyset.page(keyset(SET, { filter: { ...V2, conditions: ['Near Mint'] }, orderBy: 'price' }), 2),
    ],
    ['search, sorted by 24h', (r) => r.keyset.page(keyset(SEARCH, { orderBy: '24h' }), 2)],
    [
      'browse game, graded only',
      (r) => r.keyset.page(keyset(GAME, { filter: { ...V2, graded: 'only' } }), 2),
    ],
    [
      'browse game, updated_after',
      (r) => r.keyset.page(keyset(GAME, { filter: { ...V2, updatedAfter: T } }), 2),
    ],
    ['count of a game', (r) => r.keyset.count(keyset(GAME), 1000)],
    [
      'count of a set, condition',
      (r) => r.keyset.count(keyset(SET, { filter: { ...V2, conditions: ['Near Mint'] } }), 1000),
    ],
    ['count of a search', (r) => r.keyset.count(keyset(SEARCH), 1000)],
    ['count of a game, min_price', (r) => r.keyset.count(keyset(GAME, { minPrice: 500 }), 1000)],
  ],
  catalogue: [
    ['games', (r) => r.catalogue.listGames()],
    ['game by id or name', (r) => r.catalogue.findGame('Magic')],
    ['game summaries', (r) => r.catalogue.listGameSummaries()],
    ['set summaries by name', (r) => r.catalogue.listSetSummaries('mtg', { orderBy: 'name', order: 'asc' })],
    [
      'set summaries by release date, searched',
      (r) => r.catalogue.listSetSummaries('mtg', { orderBy: 'release_date', order: 'desc', q: 'alpha_%' }),
    ],
    // 3 characters: the precomputed answers (card_name_prefixes); 6, the word-start index.
    ['name suggestions', (r) => r.catalogue.suggestCardNames({ text: 'Bol', limit: 20 })],
    [
      'name suggestions of a game, wildcards',
      (r) => r.catalogue.suggestCardNames({ text: '100%_p', gameId: 'mtg', limit: 5 }),
    ],
  ],
  // Writes that render the stored documents the joined reads take (CARD_DOCUMENTS).
  'card-documents': [
    ['refresh of cards', (r) => refreshCardDocuments(r.client, [CARD_A, CARD_B])],
    ['refresh of one column', (r) => refreshCardDocuments(r.client, [CARD_A], ['v2_variants'])],
    ['refresh of the cards of variants', (r) => refreshDocumentsOfVariants(r.client, [VARIANT_A])],
    ['drop of the cards of variants', (r) => dropDocumentsOfVariants(r.client, [VARIANT_A])],
    ['render of the cards without documents', (r) => renderUndocumentedCards(r.client)],
  ],
};

/** A bound value in a snapshot: long texts (rendered JSON) cut, as they say nothing of the SQL. */
async function render(cases: readonly Case[]): Promise<SqlCase[]> {
  const parts: SqlCase[] = [];
  for (const [name, run] of cases) {
    const statements: Statement[] = [];
    const source = recordingSource(statements);
    const client: Connection = {
      query: ({ text, values }) => {
        statements.push({ text, values });
        return Promise.resolve({ rows: [], rowCount: 0 });
      },
    };
    await run({
      cards: new CardQueryRepository(source),
      keyset: new CardKeysetRepository(source),
      catalogue: new TypeOrmCatalogueRepository(source),
      client,
    });
    parts.push(sqlCase(name, statements));
  }
  return parts;
}

describe('SQL of the hot reads', () => {
  it.each(Object.keys(GROUPS))('%s.sql holds the statements the reads send', async (group) => {
    expectSqlSnapshot(join(SNAPSHOTS, `${group}.sql`), await render(GROUPS[group]!));
  });
});

describe('SQL of the replicas', () => {
  itMatchesSqlSnapshots(SNAPSHOTS, {
    'read-replicas': [statementCase("the primary's cluster, and a replica's", systemIdentifierStatement())],
  });
});
