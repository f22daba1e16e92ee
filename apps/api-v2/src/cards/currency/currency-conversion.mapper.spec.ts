import { RateBook } from './exchange-rate-book';
import { convertCardsBody } from './currency-conversion.mapper';

// The ECB's rates of Friday 2025-05-09 and Thursday 2025-05-08 (tools/feeds/fixtures/ecb), per euro.
const book = new RateBook({
  source: 'ecb',
  count: 6,
  byCurrency: new Map([
    ['USD', { days: [20_216, 20_217], rates: ['1.1330', '1.1252'] }],
    ['GBP', { days: [20_216, 20_217], rates: ['0.85020', '0.84770'] }],
    ['JPY', { days: [20_216, 20_217], rates: ['164.23', '163.36'] }],
  ]),
});
const at = (day: string, hour = 12) => Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`) / 1000;
const SOURCE = 'ECB euro foreign exchange reference rates';

function market(extra: Record<string, unknown>) {
  return {
    region: 'NA',
    currency: 'USD',
    price: 10,
    updated_at: at('2025-05-09'),
    change_24h_pct: 1.5,
    ...extra,
  };
}
function convert(m: Record<string, unknown>, target: string): Record<string, unknown> {
  const body = JSON.stringify({ data: [{ id: 'c', variants: [{ id: 'v', markets: [m] }] }] });
  const out = JSON.parse(convertCardsBody(body, target, book)) as {
    data: { variants: { markets: Record<string, unknown>[] }[] }[];
  };
  return out.data[0]!.variants[0]!.markets[0]!;
}

describe('convertCardsBody', () => {
  it("converts a USD price with its own day's rate through the euro, keeping the native price", () => {
    const m = convert(market({}), 'EUR');
    expect(m).toMatchObject({ currency: 'USD', price: 10 });
    // 10 USD / 1.1252 USD per EUR = 8.8873… EUR
    expect(m['conversion']).toEqual({
      currency: 'EUR',
      price: 8.89,
      rate: 0.888731,
      rate_date: '2025-05-09',
      source: SOURCE,
    });
  });

  it('crosses two non-euro currencies through the euro and rounds once to the target’s minor unit', () => {
    // 10 USD × (163.36 / 1.1252) = 1451.83… JPY: no minor unit.
    expect(convert(market({}), 'JPY')['conversion']).toMatchObject({ price: 1452, rate: 145.183079 });
    // 10 USD × (0.84770 / 1.1252) = 7.5337… GBP
    expect(convert(market({}), 'GBP')['conversion']).toMatchObject({ price: 7.53, rate_date: '2025-05-09' });
  });

  it("uses Friday's rate on a weekend and says so", () => {
    const m = convert(market({ updated_at: at('2025-05-11') }), 'EUR');
    expect(m['conversion']).toMatchObject({ price: 8.89, rate_date: '2025-05-09' });
  });

  it('says why, rather than guess, when no rate is within a week', () => {
    expect(convert(market({ updated_at: at('2025-05-17') }), 'EUR')['conversion']).toEqual({
      currency: 'EUR',
      price: null,
      rate: null,
      rate_date: null,
      source: null,
      reason: 'no ECB rate for USD on 2025-05-17 or in the 7 days before it',
    });
    expect(convert(market({ updated_at: at('2025-05-01') }), 'EUR')['conversion']).toMatchObject({
      price: null,
      reason: 'no ECB rate for USD on 2025-05-01 or in the 7 days before it',
    });
    expect(convert(market({ currency: 'AUD' }), 'EUR')['conversion']).toMatchObject({
      price: null,
      reason: 'the ECB publishes no rate for AUD',
    });
  });

  it('converts each history point with its own day and the money statistics with the observation day', () => {
    const m = convert(
      market({
        periods: {
          '7d': {
            change_pct: 5,
            avg: 9.5,
            min: 9,
            max: 10,
            stddev: 0.5,
            trend_slope: 0.1234,
            changes_count: 3,
          },
        },
        price_history: [
          { t: at('2025-05-08'), p: 9 },
          { t: at('2025-05-09'), p: 10 },
        ],
      }),
      'EUR',
    );
    const conversion = m['conversion'] as Record<string, unknown>;
    expect(conversion['periods']).toEqual({
      '7d': { avg: 8.44, min: 8, max: 8.89, stddev: 0.44, trend_slope: 0.1097 },
    });
    expect(conversion['price_history']).toEqual([
      // 9 / 1.1330 = 7.9435…
      { t: at('2025-05-08'), p: 7.94, rate: 0.882613, rate_date: '2025-05-08' },
      { t: at('2025-05-09'), p: 8.89, rate: 0.888731, rate_date: '2025-05-09' },
    ]);
    // The native figures are untouched.
    expect(m['periods']).toEqual({
      '7d': { change_pct: 5, avg: 9.5, min: 9, max: 10, stddev: 0.5, trend_slope: 0.1234, changes_count: 3 },
    });
  });

  it('marks a market without a price, and one already in the currency', () => {
    expect(
      convert(market({ price: null, updated_at: null, periods: {}, price_history: [] }), 'EUR')['conversion'],
    ).toEqual({
      currency: 'EUR',
      price: null,
      rate: null,
      rate_date: null,
      source: null,
      reason: 'the market has no price to convert',
      periods: {},
      price_history: [],
    });
    expect(convert(market({}), 'USD')['conversion']).toEqual({
      currency: 'USD',
      price: 10,
      rate: 1,
      rate_date: null,
      source: null,
    });
  });

  it('says when no rates are stored at all', () => {
    const none = new RateBook({ source: 'ecb', count: 0, byCurrency: new Map() });
    const body = JSON.stringify({ data: [{ variants: [{ markets: [market({})] }] }] });
    expect(convertCardsBody(body, 'EUR', none)).toContain(
      '"reason":"no exchange rates are stored: the ECB feed has not been synced"',
    );
  });

  it('reads one card as GET /v2/cards/{id} sends it', () => {
    const body = JSON.stringify({ data: { id: 'c', variants: [{ markets: [market({})] }] } });
    const out = JSON.parse(convertCardsBody(body, 'EUR', book)) as {
      data: { variants: { markets: { conversion: { price: number } }[] }[] };
    };
    expect(out.data.variants[0]!.markets[0]!.conversion.price).toBe(8.89);
  });
});
