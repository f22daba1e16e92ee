import { refusalOf, V1_CARDS_PARAMETERS } from '@tcg/http-service/testing';
import { DomainError } from '@tcg/domain';
import { QUERY_LIMITS } from '@tcg/http-service';
import { STATISTIC_WINDOWS } from '@tcg/rendering';
import fc from 'fast-check';
import {
  CARDS_QUERY,
  CardsQuery,
  MAX_OFFSET,
  MAX_SEARCH_LENGTH,
  parseCardsQuery,
  presentation,
  PRESENTATION_QUERY,
  toCardsQuery,
} from './cards-query.schema';

const parse = (raw: Record<string, unknown>, maxLimit = 100) => parseCardsQuery(raw, maxLimit);
const refusal = (raw: Record<string, unknown>) => refusalOf(() => parse(raw));
const many = (count: number, item = 'NM') => Array<string>(count).fill(item).join(',');

describe('parseCardsQuery', () => {
  it('defaults to a browse of 20 priced cards with 7 days of history and every statistic', () => {
    expect(parse({})).toEqual({
      selector: { by: 'browse', setId: undefined, number: undefined, q: undefined },
      game: undefined,
      q: undefined,
      filter: {
        printings: undefined,
        conditions: undefined,
        languages: undefined,
        updatedAfter: undefined,
        includeNullPrices: false,
      },
      historyDuration: '7d',
      includeHistory: true,
      statistics: new Set(STATISTIC_WINDOWS),
      limit: 20,
      offset: 0,
      order: { by: undefined, direction: 'desc', minPrice: undefined },
    });
  });

  it.each([
    [
      { cardId: 'c', vendorId: 'v', variantId: 'x', vendorSkuId: 's' },
      { by: 'variantId', value: 'x' },
    ],
    [
      { cardId: 'c', vendorId: 'v', vendorSkuId: 's' },
      { by: 'vendorSkuId', value: 's' },
    ],
    [
      { cardId: 'c', vendorId: 'v', q: 'dragon' },
      { by: 'cardId', value: 'c' },
    ],
    [
      { vendorId: 'v', opensetId: 'o' },
      { by: 'vendorId', value: 'v' },
    ],
    [
      { opensetId: 'o', imagedbId: 'i' },
      { by: 'opensetId', value: 'o' },
    ],
    [{ imagedbId: ' i ' }, { by: 'imagedbId', value: 'i' }],
    [
      { set: 's', number: '7', q: 'xyz' },
      { by: 'browse', setId: 's', number: '7', q: 'xyz' },
    ],
  ])('selects %j as %j (the most specific identifier wins)', (raw, selector) => {
    expect(parse(raw).selector).toEqual(selector);
  });

  it('reads the game of a browse only', () => {
    expect(parse({ game: 'Magic: The Gathering' }).game).toBe('Magic: The Gathering');
    expect(parse({ game: 'magic', cardId: 'c' }).game).toBeUndefined();
  });

  it('reads filters case-insensitively, printings without their language suffix', () => {
    const { filter } = parse({
      printing: 'Normal - Japanese,1st Edition Holofoil',
      condition: ['nm', 'Lightly Played'],
      language: 'japanese,French',
      updated_after: '1767139200',
      include_null_prices: 'TRUE',
    });
    expect(filter).toEqual({
      printings: ['1st edition holofoil', 'normal'],
      conditions: ['Lightly Played', 'Near Mint'],
      languages: ['French', 'Japanese'],
      updatedAfter: 1767139200,
      includeNullPrices: true,
    });
  });

  it('shows unpriced cards in a search, whatever include_null_prices says', () => {
    expect(parse({ q: 'dragon', include_null_prices: 'false' }).filter.includeNullPrices).toBe(true);
  });

  it('clamps limit to the plan and reads the presentation and order options', () => {
    const q = parse({
      limit: '500',
      offset: String(MAX_OFFSET),
      priceHistoryDuration: '1y',
      include_price_history: '0',
      include_statistics: '7d,allTime',
      orderBy: 'PRICE',
      order: 'ASC',
      min_price: '12.50',
    });
    expect(q).toMatchObject({
      limit: 100,
      offset: MAX_OFFSET,
      historyDuration: '1y',
      includeHistory: false,
      statistics: new Set(['7d', 'allTime']),
      order: { by: 'price', direction: 'asc', minPrice: 1250 },
    });
  });

  it('accepts every string parameter at its cap', () => {
    const q = parse({
      q: 'q'.repeat(MAX_SEARCH_LENGTH),
      cardId: 'c'.repeat(QUERY_LIMITS.value),
      printing: many(QUERY_LIMITS.listItems, 'Normal'),
      condition: many(QUERY_LIMITS.listItems),
    });
    expect(q.selector).toEqual({ by: 'cardId', value: 'c'.repeat(QUERY_LIMITS.value) });
    // A list is a set: its repeats are one item.
    expect(q.filter.printings).toEqual(['normal']);
  });

  it.each<[Record<string, unknown>, string, RegExp]>([
    [{ q: 'q'.repeat(MAX_SEARCH_LENGTH + 1) }, 'q', /at most 200 characters/],
    [{ q: Array<string>(QUERY_LIMITS.repeats + 1).fill('a') }, 'q', /at most 16 times/],
    ...[
      'cardId',
      'variantId',
      'vendorId',
      'vendorSkuId',
      'opensetId',
      'imagedbId',
      'game',
      'set',
      'number',
    ].map((name): [Record<string, unknown>, string, RegExp] => [
      { [name]: 'x'.repeat(QUERY_LIMITS.value + 1) },
      name,
      /at most 256 characters/,
    ]),
    [{ printing: many(QUERY_LIMITS.listItems + 1, 'Foil') }, 'printing', /at most 32 comma-separated values/],
    [{ printing: 'x'.repeat(QUERY_LIMITS.listItem + 1) }, 'printing', /at most 64 characters each/],
    [
      { printing: `Normal${' '.repeat(3000)}-${' '.repeat(3000)}-` },
      'printing',
      /at most 512 characters in all/,
    ],
    [{ condition: many(QUERY_LIMITS.listItems + 1) }, 'condition', /at most 32/],
    [{ language: Array<string>(QUERY_LIMITS.repeats + 1).fill('English') }, 'language', /at most 16 times/],
    [{ include_statistics: 'x'.repeat(QUERY_LIMITS.list + 1) }, 'include_statistics', /at most 512/],
    [{ offset: String(MAX_OFFSET + 1) }, 'offset', /integer from 0 to 10000\b/],
    [{ offset: '-1' }, 'offset', /integer from 0/],
    [{ offset: '9'.repeat(400) }, 'offset', /at most 256 characters/],
    [{ limit: '0' }, 'limit', /at least 1/],
    [{ limit: '99999999999999999999999' }, 'limit', /integer/],
    [{ updated_after: '1e400' }, 'updated_after', /integer/],
    [{ include_null_prices: 'yes' }, 'include_null_prices', /true, false/],
    [{ priceHistoryDuration: '2y' }, 'priceHistoryDuration', /7d, 30d, 90d, 180d, 1y/],
    [{ include_statistics: '7d,2y' }, 'include_statistics', /allTime/],
    [{ condition: 'Mint-ish' }, 'condition', /Near Mint/],
    [{ language: 'Klingon' }, 'language', /Japanese/],
    [{ orderBy: 'name' }, 'orderBy', /price, 24h, 7d, 30d, 90d/],
    [{ order: 'up' }, 'order', /asc, desc/],
    [{ min_price: '1.234' }, 'min_price', /Accepted: a non-negative price in USD, at most 2 decimals\./],
    [{ q: 'ab' }, 'q', /at least 3 letters or digits in a row/],
    [{ q: 'a b c' }, 'q', /at least 3 letters or digits in a row/],
    [{ game: 'g', condition: 'NM', orderBy: 'price' }, 'orderBy', /needs 'set'/],
    [{ printing: 'Foil', min_price: '1' }, 'min_price', /needs 'set'/],
    [{ updated_after: '1', orderBy: '7d' }, 'orderBy', /needs 'set'/],
  ])('refuses %j naming %s and what it accepts', (raw, parameter, accepted) => {
    const error = refusal(raw);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter });
    expect(error.message).toContain(`'${parameter}'`);
    expect(error.message).toMatch(accepted);
  });
});

describe('CARDS_QUERY', () => {
  it('reads GET /v1/cards parameters as a client writes them, each to its type', () => {
    expect(
      CARDS_QUERY.parse({
        cardId: ' c ',
        printing: ['Normal - Japanese', 'Foil'],
        condition: 'nm',
        include_statistics: '7d',
        limit: '50',
        orderBy: '24H',
        min_price: '0.5',
        colour: 'ignored',
      }),
    ).toEqual({
      q: undefined,
      game: undefined,
      set: undefined,
      cardId: 'c',
      variantId: undefined,
      vendorId: undefined,
      opensetId: undefined,
      imagedbId: undefined,
      vendorSkuId: undefined,
      number: undefined,
      printing: ['foil', 'normal'],
      language: undefined,
      condition: ['Near Mint'],
      priceHistoryDuration: '7d',
      include_price_history: true,
      include_statistics: ['7d'],
      include_null_prices: false,
      updated_after: undefined,
      limit: 50,
      offset: 0,
      orderBy: '24h',
      order: 'desc',
      min_price: 50,
    });
  });

  it('gives an absent parameter the default its documentation states', () => {
    const absent = toCardsQuery(CARDS_QUERY.parse({}), 1000);
    const documented = (name: string) =>
      CARDS_QUERY.params[name as keyof typeof CARDS_QUERY.params].doc.schema.default;
    expect(absent.historyDuration).toBe(documented('priceHistoryDuration'));
    expect(absent.includeHistory).toBe(documented('include_price_history'));
    expect([...absent.statistics]).toEqual(documented('include_statistics'));
    expect(absent.filter.includeNullPrices).toBe(documented('include_null_prices'));
    expect(absent.limit).toBe(documented('limit'));
    expect(absent.offset).toBe(documented('offset'));
    expect(absent.order.direction).toBe(documented('order'));
  });

  it('documents every parameter it reads, and POST the presentation ones only', () => {
    expect(CARDS_QUERY.names).toEqual(V1_CARDS_PARAMETERS);
    for (const name of CARDS_QUERY.names)
      expect([name, CARDS_QUERY.params[name].doc.description]).toEqual([name, expect.any(String)]);
    expect(PRESENTATION_QUERY.names).toEqual([
      'priceHistoryDuration',
      'include_price_history',
      'include_statistics',
    ]);
  });

  it('answers any query with a CardsQuery or a 400 naming a parameter, never another error', () => {
    const value = fc.oneof(
      fc.constantFrom('', ' ', 'NM', 'Japanese', '7d', 'true', '0', '12.50', 'asc', 'PRICE', '-1', '1e3'),
      fc.string({ maxLength: 300 }),
      fc.array(fc.string({ maxLength: 20 }), { maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...CARDS_QUERY.names, 'other'), value), (raw) => {
        try {
          parse(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect(error).toMatchObject({ code: 'INVALID_REQUEST' });
          expect((error as DomainError).message).toContain(`'${(error as DomainError).parameter}'`);
        }
      }),
    );
  });
});

describe('toCardsQuery', () => {
  const params = (raw: Record<string, unknown>) => CARDS_QUERY.parse(raw);

  it.each<[string, Record<string, unknown>, Partial<CardsQuery>]>([
    [
      'an identifier wins over a search and drops the game',
      { cardId: 'c', q: 'xyz', game: 'g' },
      {
        selector: { by: 'cardId', value: 'c' },
        game: undefined,
        q: 'xyz',
      },
    ],
    [
      'a browse keeps the game, set and number',
      { game: 'g', set: 's', number: '7' },
      {
        selector: { by: 'browse', setId: 's', number: '7', q: undefined },
        game: 'g',
      },
    ],
    [
      'a search shows unpriced cards whatever include_null_prices says',
      { q: 'xyz', include_null_prices: 'false' },
      {
        filter: expect.objectContaining({ includeNullPrices: true }) as CardsQuery['filter'],
      },
    ],
    [
      'a lookup honours include_null_prices',
      { cardId: 'c', q: 'xyz', include_null_prices: 'true' },
      {
        filter: expect.objectContaining({ includeNullPrices: true }) as CardsQuery['filter'],
      },
    ],
    [
      'the order options become one CardOrder',
      { orderBy: '7d', order: 'asc', min_price: '3' },
      {
        order: { by: '7d', direction: 'asc', minPrice: 300 },
      },
    ],
  ])('%s', (_name, raw, expected) => {
    expect(toCardsQuery(params(raw), 100)).toMatchObject(expected);
  });

  it.each([
    [20, '500', 20],
    [200, '500', 200],
    [200, '150', 150],
  ])("clamps limit to the plan's maximum (%i): %s gives %i", (maxLimit, limit, used) => {
    expect(toCardsQuery(params({ limit }), maxLimit).limit).toBe(used);
  });

  it("reads how POST's cards are presented from its query string", () => {
    expect(
      presentation(PRESENTATION_QUERY.parse({ priceHistoryDuration: '1y', include_price_history: 'false' })),
    ).toEqual({
      historyDuration: '1y',
      includeHistory: false,
      statistics: new Set(STATISTIC_WINDOWS),
    });
  });
});
