import { refusalOf } from '@tcg/http-service/testing';
import { QUERY_LIMITS } from '@tcg/http-service';
import { MAX_CURSOR_LENGTH } from '../cursor/cursor-codec';
import { HISTORY_DURATIONS as HISTORY_WINDOWS, PERIOD_WINDOWS } from '@tcg/rendering';
import { parseCardV2Query } from './card-v2-query.schema';
import { MAX_SEARCH_LENGTH, parseCardsV2Query } from './cards-v2-query.schema';

const parse = (raw: Record<string, unknown>, maxLimit = 100) => parseCardsV2Query(raw, maxLimit);
const refusal = (raw: Record<string, unknown>) => refusalOf(() => parse(raw));

describe('parseCardsV2Query', () => {
  it('defaults to NA, raw only, every period and 7 days of history, 20 cards', () => {
    const q = parse({});
    expect(q.regions.map((r) => [r.code, r.currency, r.storageRegion])).toEqual([['NA', 'USD', 'NA']]);
    expect(q.filter).toMatchObject({ graded: 'exclude', includeNullPrices: true });
    expect([...q.include.periods]).toEqual([...PERIOD_WINDOWS]);
    expect(q.include).toMatchObject({ withPeriods: true, historySeconds: HISTORY_WINDOWS['7d'] });
    expect(q.limit).toBe(20);
    expect(q.selector).toEqual({ by: 'browse' });
  });

  it('takes the most specific identifier', () => {
    expect(parse({ card_id: 'c', vendor_id: 'v', variant_id: 'x', vendor_sku: 's' }).selector).toEqual({
      by: 'variantId',
      value: 'x',
    });
    expect(parse({ card_id: 'c', vendor_id: 'v', vendor_sku: 's' }).selector).toEqual({
      by: 'vendorSkuId',
      value: 's',
    });
    expect(parse({ card_id: 'c', vendor_id: 'v', q: 'dragon' }).selector).toEqual({
      by: 'cardId',
      value: 'c',
    });
    expect(parse({ vendor_id: 'v', game: 'g' })).toMatchObject({
      selector: { by: 'vendorId', value: 'v' },
      game: undefined,
    });
  });

  it('reads regions case-insensitively, in order, once each; US is served from NA and quoted in USD', () => {
    const q = parse({ regions: 'us,eu,Mx,jp,EU' });
    expect(q.regions.map((r) => [r.code, r.currency, r.storageRegion])).toEqual([
      ['US', 'USD', 'NA'],
      ['EU', 'EUR', 'EU'],
      ['MX', 'MXN', 'MX'],
      ['JP', 'JPY', 'JP'],
    ]);
    expect(parse({ regions: ['NA', 'UK'] }).regions.map((r) => r.code)).toEqual(['NA', 'UK']);
  });

  it('reads the graded scope as interface.md and decisions.md say', () => {
    expect(parse({ graded: 'ONLY' }).filter.graded).toBe('only');
    expect(parse({ grading_company: 'psa' }).filter).toMatchObject({ graded: 'only', gradingCompany: 'PSA' });
    expect(parse({ grading_company: 'BGS', graded: 'include' }).filter).toMatchObject({
      graded: 'include',
      gradingCompany: 'BGS',
    });
    expect(parse({ grading_company: 'PSA', grade: '10,9.5,authentic,10' }).filter.grades).toEqual([
      10,
      9.5,
      null,
    ]);
  });

  it('replaces the default components with what include lists, the longest history window winning', () => {
    expect(parse({ include: 'periods.30d' }).include).toEqual({
      periods: new Set(['30d']),
      withPeriods: true,
      historySeconds: undefined,
    });
    expect(parse({ include: 'price_history.30d,price_history.7d' }).include).toEqual({
      periods: new Set(),
      withPeriods: false,
      historySeconds: HISTORY_WINDOWS['30d'],
    });
    expect(parse({ include: 'price_history' }).include.historySeconds).toBe(HISTORY_WINDOWS['7d']);
    expect(parse({ include: '' }).include).toEqual({
      periods: new Set(),
      withPeriods: false,
      historySeconds: undefined,
    });
  });

  it('clamps limit to the plan and reads min_price in the primary currency', () => {
    expect(parse({ limit: '500' }, 100).limit).toBe(100);
    expect(parse({ min_price: '12.5' }).minPrice).toBe(1250);
    expect(parse({ min_price: '1200', regions: 'JP' }).minPrice).toBe(1200);
  });

  it('binds cursors to what decides the cards and their order, not to page size, components or language', () => {
    const base = parse({ set: 's', order_by: 'price', regions: 'na' });
    expect(
      parse({ set: 's', order_by: 'price', regions: 'NA', limit: '5', include: 'periods' }).fingerprint,
    ).toBe(base.fingerprint);
    expect(parse({ set: 's', order_by: 'price', regions: 'na', language: 'French' }).fingerprint).toBe(
      base.fingerprint,
    );
    for (const other of [
      { set: 't' },
      { order_by: '24h' },
      { regions: 'NA,EU' },
      { graded: 'include' },
      { min_price: '1' },
    ]) {
      expect(parse({ set: 's', order_by: 'price', regions: 'na', ...other }).fingerprint).not.toBe(
        base.fingerprint,
      );
    }
  });

  it.each([
    [{ colour: 'red' }, 'colour', /no such parameter/],
    [{ cardId: 'x' }, 'cardId', /card_id/],
    [{ regions: 'NA,ZZ' }, 'regions', /ISO 3166-1/],
    [{ regions: 'MOON' }, 'regions', /NA, EU, UK, JP, OCE, LATAM, OTHER/],
    [{ graded: 'yes' }, 'graded', /exclude, only, include/],
    [{ grading_company: 'ABC' }, 'grading_company', /PSA, BGS, CGC, BCCG, BVG, SGC/],
    [{ grading_company: 'PSA', graded: 'exclude' }, 'grading_company', /graded=only/],
    [{ grade: '10' }, 'grade', /grading_company/],
    [{ grading_company: 'PSA', grade: '10.3' }, 'grade', /steps of 0.5/],
    [{ grading_company: 'PSA', grade: '11' }, 'grade', /1 to 10/],
    [{ include: 'periods.2y' }, 'include', /periods\.all_time/],
    [{ include: 'history' }, 'include', /price_history\.180d/],
    [{ language: 'Klingon' }, 'language', /Japanese/],
    [{ limit: '0' }, 'limit', /Accepted: an integer of at least 1\./],
    [{ limit: 'ten' }, 'limit', /Accepted: an integer of at least 1\./],
    [
      { min_price: '-1' },
      'min_price',
      /Accepted: a non-negative price in USD \(the primary market's currency\), at most 2 decimals\./,
    ],
    [
      { min_price: '1.5', regions: 'JP,NA' },
      'min_price',
      /a non-negative price in JPY \(the primary market's currency\), in whole units\./,
    ],
    [{ order_by: 'name' }, 'order_by', /price, 24h, 7d, 30d/],
    [{ q: 'q'.repeat(MAX_SEARCH_LENGTH + 1) }, 'q', /at most 200 characters/],
    [{ q: 'ab' }, 'q', /at least 3 letters or digits in a row/],
    [{ graded: 'only', grading_company: 'PSA', order_by: 'price' }, 'order_by', /needs 'set'/],
    [{ graded: 'include', grading_company: 'PSA', grade: '10', min_price: '5' }, 'min_price', /needs 'set'/],
    [{ cursor: 'c'.repeat(MAX_CURSOR_LENGTH + 1) }, 'cursor', /at most 1024 characters/],
    [{ card_id: 'c'.repeat(QUERY_LIMITS.value + 1) }, 'card_id', /at most 256 characters/],
    [{ game: Array<string>(QUERY_LIMITS.repeats + 1).fill('g') }, 'game', /at most 16 times/],
    [
      {
        regions: Array<string>(QUERY_LIMITS.listItems + 1)
          .fill('NA')
          .join(','),
      },
      'regions',
      /at most 32/,
    ],
    [{ include: 'x'.repeat(QUERY_LIMITS.listItem + 1) }, 'include', /at most 64 characters each/],
    [{ grading_company: 'PSA', grade: ' '.repeat(QUERY_LIMITS.list + 1) }, 'grade', /at most 512/],
    [{ currency: 'XYZ' }, 'currency', /the euro or a currency the ECB publishes a rate for: EUR, USD, JPY/],
    [{ currency: 'HRK' }, 'currency', /EUR, USD, JPY, BGN/],
    [{ currency: 'E'.repeat(QUERY_LIMITS.value + 1) }, 'currency', /at most 256 characters/],
  ])('refuses %j naming %s and what it accepts', (raw, parameter, accepted) => {
    const error = refusal(raw);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter });
    expect(error.message).toMatch(accepted);
  });
});

describe('currency', () => {
  it('is read case-insensitively and left out of the query, its cache key and cursor, when not given', () => {
    expect(parse({ currency: 'eur' }).currency).toBe('EUR');
    expect(parseCardV2Query({ currency: 'Jpy' }).currency).toBe('JPY');
    expect('currency' in parse({})).toBe(false);
    expect('currency' in parseCardV2Query({})).toBe(false);
    // Which cards come in which order does not depend on it: a walk may change it between pages.
    expect(parse({ currency: 'EUR' }).fingerprint).toBe(parse({}).fingerprint);
  });
});

describe('parseCardV2Query', () => {
  it('accepts the shaping parameters and refuses the list ones', () => {
    expect(parseCardV2Query({ regions: 'EU', include: 'periods' }).regions[0]!.code).toBe('EU');
    expect(() => parseCardV2Query({ limit: '5' })).toThrow(/no such parameter/);
  });
});
