import { join } from 'node:path';
import { copiedInto, FEED_FIXTURES, syncFeeds, useSyncedGateway } from './feeds-cli';
import { seedCatalogue, TEST_CARDS } from './fixtures';
import { fetchWithKey } from './http';

const ECB = join(FEED_FIXTURES, 'ecb');
const SOURCE = 'ECB euro foreign exchange reference rates';

const { dragon, knight, goblin, nm, knightNm, goblinNm } = TEST_CARDS;
/** Noon UTC of a day, in seconds. */
const noon = (day: string) => Date.parse(`${day}T12:00:00Z`) / 1000;

interface Conversion {
  currency: string;
  price: number | null;
  rate: number | null;
  rate_date: string | null;
  source: string | null;
  reason?: string;
  periods?: Record<string, Record<string, number | null>>;
  price_history?: { t: number; p: number | null; rate: number | null; rate_date: string | null }[];
}
interface Market {
  region: string;
  currency: string;
  price: number | null;
  updated_at: number | null;
  periods?: Record<string, Record<string, unknown>>;
  conversion?: Conversion;
}
interface CardBody {
  data: { id: string; variants: { markets: Market[] }[] };
}

/**
 * `currency=` through the gateway (issue 40, item 3): the ECB's rates synced by the built CLI from
 * the genuine 90-day file (2016-12-05 to 2017-03-03) and daily file (2025-05-09), NA (USD) prices
 * observed in March 2017, read back in euros.
 */
describe('GET /v2/cards with currency= (ECB rates, through the gateway)', () => {
  const gateway = useSyncedGateway(async () => {
    await seedCatalogue(
      [dragon, knight, goblin],
      [nm, knightNm, goblinNm],
      [
        // Thursday 2017-03-02 and Friday 2017-03-03: each its own day's rate.
        { variantUuid: nm.uuid, t: [noon('2017-03-02'), noon('2017-03-03')], p: [1000, 1100] },
        // Saturday 2017-03-04: the ECB publishes nothing; Friday's rate.
        { variantUuid: knightNm.uuid, t: [noon('2017-03-04')], p: [500] },
        // Monday 2017-03-20: the files end on 2017-03-03, 17 days before.
        { variantUuid: goblinNm.uuid, t: [noon('2017-03-20')], p: [35] },
      ],
    );
    const from = await copiedInto('e2e-ecb-', [
      join(ECB, 'eurofxref-daily.xml'),
      join(ECB, 'eurofxref-hist-90d.xml'),
    ]);
    await syncFeeds(['--feeds', 'ecb', '--from', from, '--dir', join(from, 'cache')]);
    return from;
  });

  const call = (path: string, headers: Record<string, string> = {}) =>
    fetchWithKey(`${gateway.stack.gatewayUrl}${path}`, gateway.key, { headers });
  const market = async (cardId: string, query: string): Promise<Market> => {
    const res = await call(`/v2/cards/${cardId}?${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as CardBody).data.variants[0]!.markets[0]!;
  };

  it("shows an NA (USD) price in euros with its own day's rate, its date and its source, beside the native price", async () => {
    const m = await market(dragon.uuid, 'currency=EUR');
    expect(m).toMatchObject({ region: 'NA', currency: 'USD', price: 11, updated_at: noon('2017-03-03') });
    // 11.00 USD / 1.0565 USD per EUR (2017-03-03) = 10.4117… EUR
    expect(m.conversion).toMatchObject({
      currency: 'EUR',
      price: 10.41,
      rate: 0.946522,
      rate_date: '2017-03-03',
      source: SOURCE,
    });
    // Each history point with its own day: 10.00 USD / 1.0514 (2017-03-02) = 9.5111… EUR.
    expect(m.conversion!.price_history).toEqual([
      { t: noon('2017-03-02'), p: 9.51, rate: 0.951113, rate_date: '2017-03-02' },
      { t: noon('2017-03-03'), p: 10.41, rate: 0.946522, rate_date: '2017-03-03' },
    ]);
    // The statistics at the rate of the day the windows end on: the 7-day mean 10.50 USD.
    expect(m.periods!['7d']).toMatchObject({ avg: 10.5, min: 10, max: 11 });
    expect(m.conversion!.periods!['7d']).toMatchObject({ avg: 9.94, min: 9.47, max: 10.41 });
  });

  it.each([
    // 11.00 USD × 120.83 / 1.0565 = 1258.05… JPY
    [
      'crosses through the euro to another currency: yen have no minor unit',
      dragon,
      'currency=jpy',
      { currency: 'JPY', price: 1258, rate: 114.368197 },
    ],
    // 5.00 USD / 1.0565 = 4.7326…
    [
      "converts a price observed on a Saturday with Friday's rate, and says the rate's own date",
      knight,
      'currency=EUR',
      { currency: 'EUR', price: 4.73, rate: 0.946522 },
    ],
  ])('%s', async (_, card, query, conversion) => {
    expect((await market(card.uuid, `${query}&include=`)).conversion).toEqual({
      ...conversion,
      rate_date: '2017-03-03',
      source: SOURCE,
    });
  });

  it('says so when there is no rate within a week of the observation, never a guess', async () => {
    const m = await market(goblin.uuid, 'currency=EUR&include=');
    expect(m.price).toBe(0.35);
    expect(m.conversion).toEqual({
      currency: 'EUR',
      price: null,
      rate: null,
      rate_date: null,
      source: null,
      reason: 'no ECB rate for USD on 2017-03-20 or in the 7 days before it',
    });
  });

  it('refuses a currency the ECB does not publish with a 400 problem naming currency and what it accepts', async () => {
    for (const path of ['/v2/cards?currency=XYZ', `/v2/cards/${dragon.uuid}?currency=usd,eur`]) {
      const res = await call(path);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await res.json()) as { code: string; detail: string; status: number };
      expect(problem).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
      expect(problem.detail).toMatch(/currency/);
      expect(problem.detail).toMatch(/EUR, USD, JPY/);
    }
  });

  it('leaves the answer without currency as it was, and makes each currency its own representation', async () => {
    const plain = await call(`/v2/cards?card_id=${dragon.uuid}`);
    const plainText = await plain.text();
    const euros = await call(`/v2/cards?card_id=${dragon.uuid}&currency=EUR`);
    const eurosBody = (await euros.json()) as { data: { variants: { markets: Market[] }[] }[] };
    expect(plainText).not.toContain('conversion');
    // Take the conversions away and the rest is the native answer, byte for byte.
    for (const c of eurosBody.data)
      for (const v of c.variants) for (const m of v.markets) delete m.conversion;
    expect(JSON.stringify(eurosBody)).toBe(plainText);
    // Distinct entity tags: a client revalidating one never gets a 304 for the other.
    const plainTag = plain.headers.get('etag')!;
    expect(euros.headers.get('etag')).not.toBe(plainTag);
    expect(
      (await call(`/v2/cards?card_id=${dragon.uuid}&currency=EUR`, { 'if-none-match': plainTag })).status,
    ).toBe(200);
    expect((await call(`/v2/cards?card_id=${dragon.uuid}`, { 'if-none-match': plainTag })).status).toBe(304);
  });
});
