import { Card, GrowingPriceSeries, Language, RawVariant } from '@tcg/domain';
import { card, DAY, raw, seedCatalogue, SET, T_NOW } from './fixtures';
import { fetchWithKey } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

/** A small deterministic generator, so a failure names the same variant every run. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Series of every shape the statistics treat differently: years of daily points with intraday
 * points in the last week, a few points, one point, flat prices, a zero price, and none at all.
 */
function seriesOf(i: number): GrowingPriceSeries | null {
  const rnd = generator(i + 1);
  const shape = i % 6;
  if (shape === 5) return null;
  const t: number[] = [];
  const p: number[] = [];
  const days = shape === 0 ? 500 : shape === 1 ? 120 : shape === 2 ? 4 : shape === 3 ? 1 : 40;
  let price = 50 + Math.floor(rnd() * 5000);
  for (let d = days - 1; d >= 0; d--) {
    const step = d < 7 && shape === 0 ? 4 : 1; // four points a day in the last week
    for (let k = step - 1; k >= 0; k--) {
      t.push(T_NOW - d * DAY - k * 21_600);
      if (shape !== 4) price = Math.max(0, price + Math.round((rnd() - 0.5) * price * 0.08));
      p.push(shape === 4 && d === 10 ? 0 : price);
    }
  }
  return { t, p };
}

const LANGUAGES: Language[] = ['English', 'English', 'Japanese'];
const cards: Card[] = Array.from({ length: 30 }, (_, i) => card(`Consistency ${i}`, String(i + 1)));
const variants: RawVariant[] = cards.flatMap((c, i) => [
  raw(c, 'Near Mint', 'Normal', LANGUAGES[i % 3]!),
  raw(c, 'Lightly Played', 'Normal', 'English'),
  raw(c, 'Near Mint', 'Foil', 'English'),
]);

/** v1 flat field → [v2 period, v2 field] (docs/spec/decisions.md: the same values, regrouped). */
const FLAT_TO_PERIODS: Record<string, [string, string]> = {};
for (const [w, suffix] of [
  ['7d', ''],
  ['30d', '30d'],
  ['90d', '90d'],
] as const) {
  Object.assign(FLAT_TO_PERIODS, {
    [`priceChange${w}`]: [w, 'change_pct'],
    [`avgPrice${suffix}`]: [w, 'avg'],
    [`minPrice${w}`]: [w, 'min'],
    [`maxPrice${w}`]: [w, 'max'],
    [`stddevPopPrice${w}`]: [w, 'stddev'],
    [`covPrice${w}`]: [w, 'cov'],
    [`iqrPrice${w}`]: [w, 'iqr'],
    [`trendSlope${w}`]: [w, 'trend_slope'],
    [`priceChangesCount${w}`]: [w, 'changes_count'],
  });
  if (w !== '7d') FLAT_TO_PERIODS[`priceRelativeTo${w}Range`] = [w, 'range_position'];
}
Object.assign(FLAT_TO_PERIODS, {
  minPrice1y: ['1y', 'min'],
  maxPrice1y: ['1y', 'max'],
  minPriceAllTime: ['all_time', 'min'],
  maxPriceAllTime: ['all_time', 'max'],
  minPriceAllTimeDate: ['all_time', 'min_date'],
  maxPriceAllTimeDate: ['all_time', 'max_date'],
});

type V1Variant = Record<string, unknown> & { uuid: string; id: string; priceHistory: unknown[] };
type V2Market = {
  price: unknown;
  updated_at: unknown;
  change_24h_pct: unknown;
  periods?: Record<string, Record<string, unknown>>;
  price_history?: unknown[];
};
type V2Variant = {
  id: string;
  slug: string;
  condition: string;
  printing: string;
  language: string | null;
  markets: V2Market[];
};

describe('v1 and v2 give the same numbers for the same variant', () => {
  let stack: Stack;
  let key: string;
  const v1 = new Map<string, V1Variant>();
  const v2 = new Map<string, V2Variant>();

  beforeAll(async () => {
    await seedCatalogue(
      cards,
      variants,
      variants.flatMap((v, i) => {
        const s = seriesOf(i);
        return s ? [{ variantUuid: v.uuid, ...s }] : [];
      }),
    );
    stack = await startStack();
    key = await newKey('enterprise');
    const get = async (path: string) =>
      (await (await fetchWithKey(`${stack.gatewayUrl}${path}`, key)).json()) as {
        data: { variants: unknown[] }[];
      };
    for (const c of (
      await get(`/v1/cards?set=${SET.id}&include_null_prices=true&limit=200&priceHistoryDuration=1y`)
    ).data)
      for (const v of c.variants as V1Variant[]) v1.set(v.uuid, v);
    for (const c of (await get(`/v2/cards?set=${SET.id}&limit=200&include=periods,price_history.1y`)).data)
      for (const v of c.variants as V2Variant[]) v2.set(v.id, v);
  });
  afterAll(async () => {
    await stack.close();
  });

  it('returns the same variants: v2 by default is v1 raw NA pricing', () => {
    expect(v1.size).toBe(variants.length);
    expect([...v2.keys()].sort()).toEqual([...v1.keys()].sort());
    for (const [uuid, a] of v1) {
      const b = v2.get(uuid)!;
      expect({ slug: b.slug, condition: b.condition, language: b.language ?? 'English' }).toEqual({
        slug: a.id,
        condition: a['condition'],
        language: a['language'],
      });
      expect(a['printing']).toBe(b.language ? `${b.printing} - ${b.language}` : b.printing);
    }
  });

  it('has v1 flat statistics equal to v2 periods, price, update time, 24h change and history', () => {
    let compared = 0;
    for (const [uuid, a] of v1) {
      const m = v2.get(uuid)!.markets[0]!;
      expect({ uuid, price: m.price, updated: m.updated_at, change: m.change_24h_pct }).toEqual({
        uuid,
        price: a['price'],
        updated: a['lastUpdated'],
        change: a['priceChange24hr'],
      });
      for (const [flat, [period, field]] of Object.entries(FLAT_TO_PERIODS)) {
        // A market without observations has empty periods; v1 sends each of its fields as null.
        const value = m.periods?.[period]?.[field] ?? null;
        expect({ uuid, flat, value }).toEqual({ uuid, flat, value: a[flat] });
        compared++;
      }
      expect(m.price_history).toEqual(a.priceHistory);
    }
    expect(compared).toBe(variants.length * Object.keys(FLAT_TO_PERIODS).length);
    // The data exercised what it should: rich, short, flat and empty series all appear.
    const prices = [...v1.values()].map((v) => v['price']);
    expect(prices.filter((p) => p === null).length).toBe(15);
    expect([...v1.values()].some((v) => v['priceChange7d'] === null && v['price'] !== null)).toBe(true);
    expect([...v1.values()].some((v) => typeof v['priceRelativeTo90dRange'] === 'number')).toBe(true);
  });
});
