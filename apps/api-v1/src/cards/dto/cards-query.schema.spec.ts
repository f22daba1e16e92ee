import { DomainError } from '@tcg/domain';
import { QUERY_LIMITS } from '@tcg/http-service';
import { STATISTIC_WINDOWS } from '@tcg/rendering';
import { MAX_OFFSET, MAX_SEARCH_LENGTH, parseCardsQuery } from './cards-query.schema';

const parse = (raw: Record<string, unknown>, maxLimit = 100) => parseCardsQuery(raw, maxLimit);
const refusal = (raw: Record<string, unknown>) => {
  try {
    parse(raw);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('accepted');
};
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
      { set: 's', number: '7', q: 'x' },
      { by: 'browse', setId: 's', number: '7', q: 'x' },
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
      printings: ['normal', '1st edition holofoil'],
      conditions: ['Near Mint', 'Lightly Played'],
      languages: ['Japanese', 'French'],
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
    expect(q.filter.printings).toHaveLength(QUERY_LIMITS.listItems);
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
    [{ offset: String(MAX_OFFSET + 1) }, 'offset', /integer from 0 to 100000/],
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
    [{ min_price: '1.234' }, 'min_price', /at most 2 decimals/],
  ])('refuses %j naming %s and what it accepts', (raw, parameter, accepted) => {
    const error = refusal(raw);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter });
    expect(error.message).toContain(`'${parameter}'`);
    expect(error.message).toMatch(accepted);
  });
});
