import { Card, parseRegion, RawVariant, Region, Variant } from '@tcg/domain';
import { computeSeriesStats } from '@tcg/pricing-stats';
import type { CardWithVariants, StoredSeries } from '../card-reads';
import type { JoinedVariantJson } from '../joined';
import { renderSeries } from '../rendered-series';
import { v1HistoryMembers, v1VariantHead } from '../v1';
import { v2VariantHead } from '../v2';
import { HISTORY_DURATIONS, STATISTIC_WINDOWS, StatisticWindow } from '../windows';
import { CardView, HistoryReads } from './card-view';
import { BatchLookup, v1BatchView, v1CardsView, v1JoinedJson, V1Presentation } from './v1-views';
import { V2Include, v2CardsView, v2CardView, v2JoinedJson } from './v2-views';

/** 60 daily observations up to 2026-03-01, from 19.98 USD down by two cents a day. */
const latest = 1_772_323_200;
const series = { t: [] as number[], p: [] as number[] };
for (let day = 59; day >= 0; day--) {
  series.t.push(latest - day * 86_400);
  series.p.push(1880 + 2 * day);
}
const stats = computeSeriesStats(series.t, series.p);
const na = parseRegion('NA')!;
const eu = parseRegion('EU')!;
const us = parseRegion('US')!;

const card: Card = {
  uuid: '0b0b0b0b-0000-4000-8000-000000000000',
  id: 'test-card',
  gameId: 'g',
  setId: 's',
  name: 'Card, "quoted"',
  number: '7',
  rarity: null,
  details: null,
  vendorId: '1',
  opensetId: null,
  imagedbId: null,
  sealed: false,
};
const variant = (n: number, extra: Partial<RawVariant> = {}): Variant => ({
  uuid: `0b0b0b0b-0000-4000-8000-00000000000${n}`,
  id: `test-card_v${n}`,
  cardUuid: card.uuid,
  type: 'raw',
  condition: 'Near Mint',
  printing: 'Normal',
  language: 'English',
  vendorSkuId: null,
  grading: null,
  ...extra,
});
const [priced, unpriced, foil] = [variant(1), variant(2), variant(3, { printing: 'Foil' })];
/** What a read takes of a series: every stored part, the statistics and the time. */
const stored = (region: string, currency: string): StoredSeries => ({
  ...renderSeries(region, currency, stats, series, 'simulated'),
  stats,
  updatedAt: latest,
});
const read: CardWithVariants = {
  card,
  setName: 'Set',
  gameName: 'Game',
  variants: [
    { variant: priced, primary: stored('NA', 'USD'), otherRegions: { EU: stored('EU', 'EUR') } },
    { variant: unpriced, primary: null },
  ],
};

/** A history read that records what it was asked for and answers with the whole series. */
function historyReads(): HistoryReads & { asked: [string, Map<string, number>][] } {
  const asked: [string, Map<string, number>][] = [];
  return {
    asked,
    priceHistory: (since, region) => {
      asked.push([region, new Map(since)]);
      return Promise.resolve(new Map([...since.keys()].map((uuid) => [uuid, series])));
    },
  };
}

/** The card's variants as the SQL join writes them (persistence's `variantsAggregateSql`). */
function joinedInSql(view: CardView, head: (v: Variant) => string, json: JoinedVariantJson): string {
  return view.joinedCards([
    {
      ...read,
      variantsJson: read.variants
        .map(
          ({ variant: v, primary: s }) =>
            `${head(v)}${json.open}${json.members
              .map((m) => ('text' in m ? m.text : (s?.[m.part] ?? m.missing)))
              .join(',')}${json.close}`,
        )
        .join(','),
    },
  ])[0]!;
}

const V1_DEFAULT: V1Presentation = {
  statistics: new Set(STATISTIC_WINDOWS),
  includeHistory: true,
  historyDuration: '7d',
};
const page = { limit: 20, offset: 0 };
const v2Default: V2Include = {
  periods: new Set(['7d', '30d', '90d', '1y', 'all_time']),
  withPeriods: true,
  historySeconds: 604_800,
};

describe("each version's card, as JSON", () => {
  const japanese = variant(4, { printing: 'Foil', language: 'Japanese', vendorSkuId: '42' });
  const withJapanese: CardWithVariants = {
    ...read,
    variants: [{ variant: japanese, primary: stored('NA', 'USD') }],
  };
  const lastWeek = series.t.slice(-7).map((t, i) => ({ t, p: series.p.slice(-7)[i]! / 100 }));

  it('v1: the card, then each variant with identity first, then the statistics and history members', async () => {
    const [json] = await v1CardsView({ ...V1_DEFAULT, ...page }).render([withJapanese], historyReads());
    const c = JSON.parse(json!) as { variants: Record<string, unknown>[] };
    expect(Object.keys(c)).toEqual([
      ...['id', 'uuid', 'name', 'game', 'set', 'set_name', 'number'],
      ...['vendorId', 'opensetId', 'imagedbId', 'rarity', 'details', 'variants'],
    ]);
    const v = c.variants[0]!;
    expect(Object.keys(v).slice(0, 8)).toEqual([
      ...['id', 'uuid', 'condition', 'printing', 'language', 'vendorSkuId'],
      ...['price', 'lastUpdated'],
    ]);
    expect(v).toMatchObject({
      printing: 'Foil - Japanese',
      price: 18.8,
      lastUpdated: latest,
      maxPrice7d: 18.92,
    });
    // Seven days back from the latest observation, exclusive: the last 7 points; 30 days: the last 30.
    expect(v['priceHistory']).toEqual(lastWeek.map(({ t, p }) => ({ p, t })));
    expect(v['priceHistory30d']).toHaveLength(30);
    expect(Object.keys(v).slice(-2)).toEqual(['priceHistory', 'priceHistory30d']);
  });

  it('v2: the card, its variants, each market with region, currency, price, then periods and history', async () => {
    const [json] = await v2CardView({ regions: [us], include: v2Default }).render(
      [withJapanese],
      historyReads(),
    );
    const c = JSON.parse(json!) as { variants: { markets: Record<string, unknown>[] }[] };
    expect(Object.keys(c)).toEqual([
      ...['id', 'slug', 'name', 'game', 'set', 'number', 'rarity', 'external_ids', 'details', 'variants'],
    ]);
    expect(c.variants[0]).toMatchObject({
      printing: 'Foil',
      language: 'Japanese',
      external_ids: { vendor_sku: '42' },
    });
    const market = c.variants[0]!.markets[0]!;
    expect(Object.keys(market)).toEqual([
      ...['region', 'currency', 'price', 'updated_at', 'change_24h_pct', 'source'],
      ...['periods', 'price_history'],
    ]);
    expect(market).toMatchObject({ region: 'US', currency: 'USD', price: 18.8, updated_at: latest });
    expect(Object.keys(market['periods'] as object)).toEqual(['7d', '30d', '90d', '1y', 'all_time']);
    expect(market['price_history']).toEqual(lastWeek);
  });
});

describe('which parts a request reads, and whether its variants are joined in SQL', () => {
  it.each<[string, Partial<V1Presentation>, JoinedVariantJson | undefined, boolean, string[]]>([
    ['default', {}, v1JoinedJson(true), false, ['v1Stats', 'v1History']],
    ['no history', { includeHistory: false }, v1JoinedJson(false), false, ['v1Stats']],
    [
      'no history, any duration',
      { includeHistory: false, historyDuration: '1y' },
      v1JoinedJson(false),
      false,
      ['v1Stats'],
    ],
    ['some windows', { statistics: new Set<StatisticWindow>(['7d']) }, undefined, true, ['v1History']],
    ['another duration', { historyDuration: '30d' }, undefined, false, ['v1Stats']],
  ])('v1, %s', (_, options, joined, withStats, parts) => {
    const view = v1CardsView({ ...V1_DEFAULT, ...options, ...page });
    expect(view.joined).toBe(joined);
    expect(view.read).toEqual({ stats: withStats, parts });
    expect(view.regions).toEqual(['NA']);
  });

  it.each<[string, readonly Region[], Partial<V2Include>, JoinedVariantJson | undefined, boolean, string[]]>([
    [
      'default',
      [na],
      {},
      v2JoinedJson('NA', 'USD', true, true),
      false,
      ['v2Price', 'v2Periods', 'v2History'],
    ],
    [
      'periods only',
      [eu],
      { historySeconds: undefined },
      v2JoinedJson('EU', 'EUR', true, false),
      false,
      ['v2Price', 'v2Periods'],
    ],
    [
      'price only',
      [na],
      { withPeriods: false, periods: new Set(), historySeconds: undefined },
      v2JoinedJson('NA', 'USD', false, false),
      false,
      ['v2Price'],
    ],
    ['one period', [na], { periods: new Set(['7d']) }, undefined, true, ['v2Price', 'v2History']],
    [
      '30 days of history',
      [na],
      { withPeriods: false, periods: new Set(), historySeconds: 2_592_000 },
      undefined,
      false,
      ['v2Price'],
    ],
    ['two markets', [na, eu], {}, undefined, false, ['v2Price', 'v2Periods', 'v2History']],
  ])('v2, %s', (_, regions, include, joined, withStats, parts) => {
    const view = v2CardView({ regions, include: { ...v2Default, ...include } });
    expect(view.joined).toBe(joined);
    expect(view.read).toEqual({ stats: withStats, parts });
    expect(view.regions).toEqual([...new Set(regions.map((r) => r.storageRegion))]);
  });

  it('reads US and NA, two markets, as one storage region', () => {
    const view = v2CardView({ regions: [us, na], include: v2Default });
    expect([view.joined, view.regions]).toEqual([undefined, ['NA']]);
  });
});

describe('a card rendered from stored parts is the card joined in SQL, byte for byte', () => {
  it.each([true, false])('v1, with history %s', async (includeHistory) => {
    const view = v1CardsView({ ...V1_DEFAULT, includeHistory, ...page });
    const reads = historyReads();
    const [rendered] = await view.render([read], reads);
    expect(rendered).toBe(joinedInSql(view, v1VariantHead, view.joined!));
    expect(reads.asked).toEqual([]);
  });

  it.each([true, false])('v2, with periods %s', async (withPeriods) => {
    const view = v2CardView({ regions: [na], include: { ...v2Default, withPeriods } });
    const [rendered] = await view.render([read], historyReads());
    expect(rendered).toBe(joinedInSql(view, v2VariantHead, view.joined!));
  });
});

describe('what is rendered per request', () => {
  it('reads v1 history once, back over the duration or the 30 days of priceHistory30d', async () => {
    const view = v1CardsView({ ...V1_DEFAULT, historyDuration: '90d', ...page });
    const reads = historyReads();
    const [json] = await view.render([read], reads);
    expect(reads.asked).toEqual([['NA', new Map([[priced.uuid, latest - HISTORY_DURATIONS['90d']]])]]);
    const [v1, v2] = (JSON.parse(json!) as { variants: Record<string, unknown>[] }).variants;
    expect(`{${v1HistoryMembers(latest, series, HISTORY_DURATIONS['90d'])}}`).toBe(
      JSON.stringify({ priceHistory: v1!['priceHistory'], priceHistory30d: v1!['priceHistory30d'] }),
    );
    expect(v2).toMatchObject({ price: null, priceHistory: [], priceHistory30d: [] });
  });

  it('gives each v2 market its own region, null where it has no observations, history per region', async () => {
    const jp = parseRegion('JP')!;
    const view = v2CardView({
      regions: [eu, jp],
      include: { periods: new Set(['1y']), withPeriods: true, historySeconds: 2_592_000 },
    });
    const reads = historyReads();
    // The read gives each variant's series in the first region asked for as its primary one.
    const asPrimary: CardWithVariants = {
      ...read,
      variants: [{ variant: priced, primary: stored('EU', 'EUR') }, read.variants[1]!],
    };
    const [again] = await view.render([asPrimary], reads);
    expect(reads.asked).toEqual([['EU', new Map([[priced.uuid, latest - 2_592_000]])]]);
    const markets = (
      JSON.parse(again!) as { variants: { markets: Record<string, unknown>[] }[] }
    ).variants.map((v) => v.markets);
    expect(markets[0]!.map((m) => [m['region'], m['currency'], m['price'] === null])).toEqual([
      ['EU', 'EUR', false],
      ['JP', 'JPY', true],
    ]);
    expect(Object.keys(markets[0]![0]!['periods'] as object)).toEqual(['1y']);
    expect(markets[0]![0]!['price_history']).toHaveLength(30);
    expect(markets[1]).toEqual([
      expect.objectContaining({ region: 'EU', price: null, periods: {}, price_history: [] }),
      expect.objectContaining({ region: 'JP', price: null, periods: {}, price_history: [] }),
    ]);
  });
});

describe('the envelopes', () => {
  it('pages v1 by offset', () => {
    const view = v1CardsView({ ...V1_DEFAULT, limit: 2, offset: 4 });
    expect(JSON.parse(view.page(7, ['{"a":1}', '{"b":2}']).join(''))).toEqual({
      data: [{ a: 1 }, { b: 2 }],
      meta: { total: 7, limit: 2, offset: 4, hasMore: true },
    });
    expect(JSON.parse(view.page(6, ['{"a":1}', '{"b":2}']).join('')).meta.hasMore).toBe(false);
  });

  it('answers a v2 lookup as one page and a browse with its cursors in meta and Link', () => {
    const view = v2CardsView(
      { regions: [na], include: v2Default, limit: 5 },
      { set: 's', include: ['a', 'b'], cursor: 'old' },
    );
    const lookup = view.lookup({ cards: ['{}'], madeOf: ['c1'] });
    expect(lookup.headers).toEqual({ 'X-Total-Count': '1' });
    expect(lookup.cards).toEqual(['c1']);
    expect(JSON.parse(lookup.json.join('')).meta).toEqual({
      count: 1,
      total: 1,
      limit: 5,
      has_more: false,
      cursor: { next: null, prev: null },
    });
    const browse = view.page(['{}', '{}'], null, { next: 'n', prev: null });
    expect(browse.headers).toEqual({ Link: '</v2/cards?set=s&include=a&include=b&cursor=n>; rel="next"' });
    expect(JSON.parse(browse.json.join('')).meta).toEqual({
      count: 2,
      total: null,
      limit: 5,
      has_more: true,
      cursor: { next: 'n', prev: null },
    });
    expect(view.page([], 9, { next: null, prev: 'p' }).headers).toEqual({
      'X-Total-Count': '9',
      Link: '</v2/cards?set=s&include=a&include=b&cursor=p>; rel="prev"',
    });
    expect(v2CardView({ regions: [na], include: v2Default }).one('{"x":1}')).toBe('{"data":{"x":1}}');
  });
});

describe('a v1 batch', () => {
  const lookups: BatchLookup[] = [{}, { printings: ['foil'] }, { updatedAfter: latest }, {}];
  const matches = [
    { ordinal: 0, cardUuid: 'a', variantUuid: null },
    { ordinal: 1, cardUuid: 'b', variantUuid: null },
    { ordinal: 2, cardUuid: 'c', variantUuid: null },
    { ordinal: 3, cardUuid: 'a', variantUuid: 'v' },
  ];

  it('takes each card once, at its first lookup, and joins in SQL only when every lookup takes whole cards', () => {
    const view = v1BatchView(V1_DEFAULT, lookups);
    const cards = view.cardsOf(matches);
    expect(cards.map((c) => [c.cardUuid, c.lookup, c.onlyVariant])).toEqual([
      ['a', {}, null],
      ['b', { printings: ['foil'] }, null],
      ['c', { updatedAfter: latest }, null],
    ]);
    const series = { kind: 'series', read: view.read, regions: ['NA'] };
    expect(view.variantsFor(cards)).toEqual(series);
    expect(view.variantsFor(cards.slice(0, 1))).toEqual({
      kind: 'joined',
      json: v1JoinedJson(true),
      region: 'NA',
    });
    expect(view.variantsFor(cards.slice(0, 1))).toBe(view.variants);
    expect(view.variantsFor([{ cardUuid: 'a', lookup: {}, onlyVariant: 'v' }])).toEqual(series);
    const yearly = v1BatchView({ ...V1_DEFAULT, historyDuration: '1y' }, lookups);
    expect(yearly.variantsFor(cards.slice(0, 1))).toEqual({
      kind: 'series',
      read: yearly.read,
      regions: ['NA'],
    });
  });

  it("narrows each card to its lookup's filters and leaves out a delta sync's unchanged cards", () => {
    const view = v1BatchView(V1_DEFAULT, lookups);
    const withFoil: CardWithVariants = {
      ...read,
      variants: [...read.variants, { variant: foil, primary: null }],
    };
    const of = (uuid: string): CardWithVariants => ({ ...withFoil, card: { ...card, uuid } });
    const narrowed = view.narrow(
      [
        { cardUuid: 'b', lookup: { printings: ['foil'] }, onlyVariant: null },
        { cardUuid: 'a', lookup: {}, onlyVariant: unpriced.uuid },
        { cardUuid: 'c', lookup: { updatedAfter: latest }, onlyVariant: null },
        { cardUuid: 'd', lookup: { updatedAfter: latest - 1 }, onlyVariant: null },
      ],
      { kind: 'series', cards: [of('a'), of('b'), of('c'), of('d')] },
    );
    if (narrowed.kind !== 'series') throw new Error('narrowed cards read with their series');
    expect(narrowed.cards.map((c) => [c.card.uuid, c.variants.map((v) => v.variant.id)])).toEqual([
      ['b', [foil.id]],
      ['a', [unpriced.id]],
      ['d', [priced.id]],
    ]);
    expect(JSON.parse(view.answer(['{}']).join('')).meta).toEqual({
      total: 1,
      limit: 4,
      offset: 0,
      hasMore: false,
    });
  });
});
