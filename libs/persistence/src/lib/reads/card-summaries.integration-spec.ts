import {
  Card,
  cardSlug,
  CardOrder,
  Condition,
  Grading,
  KeysetQuery,
  uuidV5,
  Variant,
  VariantFilter,
  variantSlug,
} from '@tcg/domain';
import { DataSource } from 'typeorm';
import { seriesCards, seriesRead, useTestDatabase, walkKeyset } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries } from '../summaries';
import { CardKeysetRepository } from './card-keyset.repository';
import { CardQueryRepository } from './card-query.repository';
import { sql } from 'kysely';
import { hasVariant, ORDER_COLUMN, regionParam, topVariantJoin } from './card-fragments';
import { and, compile } from '../sql/compile';

// Browses read which cards match, their order and their price floor from the summaries
// (card_facets, card_tops; CardFacets migration). Each answer must be the one the cards' own
// variants give, which the reference below computes card by card as the read side did before.

const GAME = { id: 'summary-game', name: 'Summary Game' };
const SETS = ['Alpha', 'Beta'].map((name) => ({
  uuid: uuidV5(`set:summary-${name}`),
  id: `summary-game-${name.toLowerCase()}`,
  gameId: GAME.id,
  name,
  code: name[0]!,
  releaseDate: null,
}));

type Spec = { printing: string; price?: Partial<Record<'NA' | 'EU', number>>; japanese?: true } & (
  { condition: Condition } | { grading: Grading }
);

const psa = (grade: number | null): Grading => ({ company: 'PSA', grade, gradeLabel: null, qualifier: null });
const cgc = (grade: number): Grading => ({ company: 'CGC', grade, gradeLabel: null, qualifier: null });

/** Per card (name, set, number), its variants: kinds, printings, regions and prices that differ. */
const CATALOGUE: [string, number, string, Spec[]][] = [
  [
    'Ash',
    0,
    '1',
    [
      { condition: 'Near Mint', printing: 'Normal', price: { NA: 500 } },
      { condition: 'Lightly Played', printing: 'Foil', price: { NA: 900, EU: 800 } },
    ],
  ],
  ['Birch', 0, '2', [{ condition: 'Near Mint', printing: 'Foil' }]],
  [
    'Cedar',
    0,
    '3',
    [
      { grading: psa(10), printing: 'Normal', price: { NA: 5000 } },
      { condition: 'Damaged', printing: 'Normal', price: { EU: 100 } },
    ],
  ],
  ['Dogwood', 0, '4', [{ condition: 'Moderately Played', printing: 'Normal', price: { NA: 500, EU: 300 } }]],
  [
    'Elm',
    1,
    '1',
    [
      { grading: cgc(9.5), printing: 'Foil' },
      { grading: psa(null), printing: 'Foil', price: { NA: 20 } },
    ],
  ],
  ['Fir', 1, '2', []],
  ['Gum', 1, '3', [{ condition: 'Near Mint', printing: 'Normal', price: { NA: 700 }, japanese: true }]],
  [
    'Hazel',
    1,
    '4',
    [
      { condition: 'Heavily Played', printing: 'Normal', price: { NA: 50 } },
      { grading: psa(9), printing: 'Normal', price: { NA: 700, EU: 650 } },
    ],
  ],
];

const cards: Card[] = CATALOGUE.map(([name, set, number]) => {
  const id = cardSlug({ game: GAME.id, set: SETS[set]!.name, name, rarity: 'Rare' });
  const c = { uuid: uuidV5(id), id, gameId: GAME.id, setId: SETS[set]!.id, name, number, rarity: 'Rare' };
  return { ...c, details: null, vendorId: null, opensetId: null, imagedbId: null, sealed: false };
});
const priced: { variant: Variant; prices: Spec['price'] }[] = CATALOGUE.flatMap(([, , , specs], i) =>
  specs.map((spec) => {
    const language = spec.japanese ? ('Japanese' as const) : ('English' as const);
    const kind = 'grading' in spec ? { grading: spec.grading } : { condition: spec.condition };
    const id = variantSlug(cards[i]!.id, { ...kind, printing: spec.printing, language });
    const base = {
      uuid: uuidV5(id),
      id,
      cardUuid: cards[i]!.uuid,
      printing: spec.printing,
      language,
      vendorSkuId: null,
    };
    const variant: Variant =
      'grading' in spec
        ? { ...base, type: 'graded', condition: null, grading: spec.grading }
        : { ...base, type: 'raw', condition: spec.condition, grading: null };
    return { variant, prices: spec.price };
  }),
);

const FILTERS: [string, VariantFilter][] = [
  ['priced raw', { includeNullPrices: false }],
  ['any raw', { includeNullPrices: true }],
  ['graded only', { includeNullPrices: false, graded: 'only' }],
  ['graded or raw, unpriced too', { includeNullPrices: true, graded: 'include' }],
  ['Near Mint', { includeNullPrices: false, conditions: ['Near Mint'] }],
  [
    'Near Mint or Lightly Played, unpriced too',
    { includeNullPrices: true, conditions: ['Near Mint', 'Lightly Played'] },
  ],
  ['foil', { includeNullPrices: true, printings: ['foil'] }],
  ['PSA only', { includeNullPrices: false, graded: 'only', gradingCompany: 'PSA' }],
  ['grade 10 or authentic', { includeNullPrices: true, graded: 'include', grades: [10, null] }],
  ['a printing nobody has', { includeNullPrices: true, printings: ['etched'] }],
];

const ORDERS: [string, CardOrder][] = [
  ['browse order', { direction: 'desc' }],
  ['price, highest first', { by: 'price', direction: 'desc' }],
  ['price, lowest first', { by: 'price', direction: 'asc' }],
  ['at least 5.00', { direction: 'desc', minPrice: 500 }],
];

describe('browses from the summaries (PostgreSQL)', () => {
  let ds: DataSource;
  let v1: CardQueryRepository;
  let v2: CardKeysetRepository;

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    v1 = new CardQueryRepository(ds);
    v2 = new CardKeysetRepository(ds);
    await writeCatalogue(ds, { games: [GAME], sets: SETS, cards, variants: priced.map((p) => p.variant) });
    await new PriceIngestRepository(ds).ingestSeries(
      priced.flatMap(({ variant, prices }) =>
        Object.entries(prices ?? {}).map(([region, p]) => ({
          variantUuid: variant.uuid,
          source: 'simulated' as const,
          region,
          t: [1_790_000_000],
          p: [p],
        })),
      ),
    );
    await refreshSummaries(ds);
  });

  /**
   * The cards a browse of the game returns, in order, computed card by card from their variants:
   * the lookup's test of a card's variants and the top variant's lateral join.
   */
  async function reference(filter: VariantFilter, region: string, order: CardOrder, tie: 'id' | 'uuid') {
    const r = regionParam(region).sql;
    const where = [sql`c.game_id = ${GAME.id}`, hasVariant(filter, r, {})];
    const top = topVariantJoin(filter, r);
    if (order.minPrice !== undefined) where.push(sql`top.price >= ${order.minPrice}`);
    const dir = sql.raw(order.direction === 'asc' ? 'ASC' : 'DESC');
    const sort = order.by
      ? sql`${ORDER_COLUMN[order.by]} ${dir} NULLS LAST, c.${sql.raw(tie)} ${tie === 'id' ? sql`ASC` : dir}, `
      : sql``;
    const statement = compile(
      sql`SELECT c.name FROM cards c ${top} WHERE ${and(where)} ORDER BY ${sort}c.sort_key, c.uuid`,
    );
    const rows: { name: string }[] = await ds.query(statement.sql, [...statement.parameters]);
    return rows.map((r) => r.name);
  }

  const nameOf = (uuid: string) => cards.find((c) => c.uuid === uuid)!.name;

  describe.each(['NA', 'EU', 'JP'])('in %s', (region) => {
    it.each(
      FILTERS.flatMap(([f, filter]) => ORDERS.map(([o, order]) => [`${f}, ${o}`, filter, order] as const)),
    )('v1 pages %s as the variants say', async (_name, filter, order) => {
      const expected = await reference(filter, region, order, 'id');
      const browse = { by: 'browse', gameId: GAME.id } as const;
      // From the first page, and past it (a deep page counts in its own statement).
      for (const offset of [0, 1]) {
        const page = await v1.findCards(
          browse,
          filter,
          { limit: 2, offset },
          order,
          seriesRead({ stats: false, parts: [] }, [region]),
        );
        expect({ total: page.total, names: seriesCards(page.found).map((c) => c.card.name) }).toEqual({
          total: expected.length,
          names: expected.slice(offset, offset + 2),
        });
      }
    });

    it.each(
      FILTERS.flatMap(([f, filter]) =>
        (['price', undefined] as const).flatMap((by) =>
          (['desc', 'asc'] as const).map(
            (direction) => [`${f}, by ${by ?? 'set'} ${direction}`, filter, by, direction] as const,
          ),
        ),
      ),
    )('v2 walks %s as the variants say, and counts it', async (_name, filter, orderBy, direction) => {
      const query: KeysetQuery = {
        browse: { by: 'browse', gameId: GAME.id },
        filter,
        region,
        orderBy,
        direction,
      };
      const expected = await reference(filter, region, { by: orderBy, direction }, 'uuid');
      expect((await walkKeyset(v2, query, 2)).map(nameOf)).toEqual(expected);
      expect(await v2.count(query, 5_000)).toBe(expected.length);
    });
  });
});
