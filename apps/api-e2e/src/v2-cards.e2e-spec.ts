import { Card } from '@tcg/domain';
import {
  card,
  DAY,
  GAME,
  graded,
  grading,
  raw,
  seedCatalogue,
  series,
  SET,
  T_NOW,
  TEST_CARDS,
} from './fixtures';
import { fetchWithKey } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

const { dragon, goblin, goblinNm, jp, knight, knightNm, lp, nm, psa10 } = TEST_CARDS;

const psa9oc = graded(dragon, grading('PSA', 9, null, 'OC'));
const bgs = graded(dragon, grading('BGS', 9.5, 'Black Label'));
const authentic = graded(dragon, grading('PSA', null));
// Fillers make the set long enough to page through: numbers 11..32, every third one unpriced.
const fillers: Card[] = Array.from({ length: 22 }, (_, i) =>
  card(`Filler ${String.fromCharCode(65 + i)}`, String(11 + i)),
);
const fillerVariants = fillers.map((c) => raw(c, 'Near Mint', 'Normal', 'English'));
const ALL_CARDS = [goblin, dragon, knight, ...fillers]; // browse order: by number

interface Market {
  region: string;
  currency: string;
  price: number | null;
  updated_at: number | null;
  change_24h_pct: number | null;
  periods?: Record<string, Record<string, unknown>>;
  price_history?: { t: number; p: number }[];
}
interface VariantV2 {
  id: string;
  slug: string;
  type: string;
  condition: string | null;
  printing: string | null;
  language: string | null;
  grading: Record<string, unknown> | null;
  markets: Market[];
}
interface CardV2 {
  id: string;
  slug: string;
  variants: VariantV2[];
}
interface ListBody {
  data: CardV2[];
  meta: {
    count: number;
    total: number | null;
    limit: number;
    has_more: boolean;
    cursor: { next: string | null; prev: string | null };
  };
  type?: string;
  code?: string;
  detail?: string;
  status?: number;
  title?: string;
}

describe('GET /v2/cards through the gateway', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    await seedCatalogue(
      ALL_CARDS,
      [nm, lp, jp, psa10, psa9oc, bgs, authentic, knightNm, goblinNm, ...fillerVariants],
      [
        { variantUuid: nm.uuid, ...series(1000) },
        { variantUuid: nm.uuid, region: 'EU', t: [T_NOW - DAY, T_NOW], p: [900, 950] },
        { variantUuid: lp.uuid, ...series(800) },
        { variantUuid: psa10.uuid, t: [T_NOW - 3 * DAY, T_NOW], p: [80_000, 90_000] },
        { variantUuid: bgs.uuid, t: [T_NOW], p: [120_000] },
        { variantUuid: goblinNm.uuid, t: [T_NOW - 2 * DAY, T_NOW], p: [30, 35] },
        // every third filler stays unpriced
        ...fillerVariants
          .filter((_, i) => i % 3 !== 2)
          .map((v, i) => ({ variantUuid: v.uuid, t: [T_NOW - DAY, T_NOW], p: [100 + i * 10, 100 + i * 7] })),
      ],
    );
    stack = await startStack();
    key = await newKey('enterprise');
  });
  afterAll(async () => {
    await stack.close();
  });

  const call = async (path: string, k: string | null = key) => {
    const res = await fetchWithKey(`${stack.gatewayUrl}${path}`, k);
    return { status: res.status, headers: res.headers, body: (await res.json()) as ListBody };
  };
  const get = (query: string, k: string | null = key) => call(`/v2/cards?${query}`, k);
  const slugs = (b: ListBody) => b.data.map((c) => c.slug);
  const variantSlugs = (b: ListBody) => b.data.flatMap((c) => c.variants.map((v) => v.slug));
  const expectProblem = (
    r: { status: number; headers: Headers; body: ListBody },
    status: number,
    code: string,
    detail?: RegExp,
  ) => {
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(r.body).toMatchObject({
      type: expect.stringMatching(/^https?:\/\/.+#[a-z-]+$/),
      title: expect.any(String),
      status,
      code,
    });
    if (detail) expect(r.body.detail).toMatch(detail);
  };

  describe('lookups', () => {
    it('returns a card in the v2 shape: UUID ids, legacy slugs, nested game and set, external ids', async () => {
      const { status, headers, body } = await get(`card_id=${dragon.uuid}`);
      expect(status).toBe(200);
      expect(headers.get('x-total-count')).toBe('1');
      expect(headers.get('ratelimit')).toMatch(/^limit=1000, remaining=\d+, reset=\d+$/);
      const { variants, ...rest } = body.data[0]!;
      expect(rest).toEqual({
        id: dragon.uuid,
        slug: dragon.id,
        name: 'Test Dragon',
        game: { id: GAME.id, name: GAME.name },
        set: { id: SET.id, name: SET.name },
        number: '7',
        rarity: 'Rare',
        external_ids: { vendor: '1007', imagedb: dragon.imagedbId, openset: 'abc123' },
        details: null,
      });
      expect(body.meta).toEqual({
        count: 1,
        total: 1,
        limit: 20,
        has_more: false,
        cursor: { next: null, prev: null },
      });
      expect(body).not.toHaveProperty('_metadata');
      // graded defaults to exclude: raw variants only
      expect(variants.map((v) => v.slug).sort()).toEqual([nm.id, lp.id, jp.id].sort());
      const japanese = variants.find((v) => v.id === jp.uuid)!;
      expect(japanese).toEqual({
        id: jp.uuid,
        slug: jp.id,
        type: 'raw',
        condition: 'Near Mint',
        printing: 'Normal',
        language: 'Japanese',
        external_ids: { vendor_sku: null },
        grading: null,
        markets: [unpricedMarket('NA', 'USD')],
      });
      expect(variants.find((v) => v.id === nm.uuid)).toMatchObject({
        language: null,
        external_ids: { vendor_sku: 'SKU-NM' },
      });
    });

    it('finds the card by slug, vendor id, variant id or SKU; the most specific identifier wins', async () => {
      expect(slugs((await get(`card_id=${dragon.id}`)).body)).toEqual([dragon.id]);
      expect(slugs((await get('vendor_id=1007')).body)).toEqual([dragon.id]);
      expect(variantSlugs((await get(`variant_id=${lp.uuid.toUpperCase()}`)).body)).toEqual([lp.id]);
      expect(variantSlugs((await get(`variant_id=${lp.id}&language=Japanese`)).body)).toEqual([lp.id]); // language ignored
      expect(variantSlugs((await get('vendor_sku=SKU-NM')).body)).toEqual([nm.id]);
      expect(
        variantSlugs((await get(`variant_id=${lp.id}&vendor_sku=SKU-NM&card_id=${goblin.id}`)).body),
      ).toEqual([lp.id]);
      expect(slugs((await get(`card_id=${goblin.id}&vendor_id=1007&q=dragon`)).body)).toEqual([goblin.id]);
      // a graded variant asked for by id is returned though graded defaults to exclude
      expect(variantSlugs((await get(`variant_id=${psa10.uuid}`)).body)).toEqual([psa10.id]);
    });

    it('answers a lookup that matches nothing with 200 and no data', async () => {
      const { status, headers, body } = await get('card_id=no-such-card');
      expect(status).toBe(200);
      expect(body).toEqual({
        data: [],
        meta: { count: 0, total: 0, limit: 20, has_more: false, cursor: { next: null, prev: null } },
      });
      expect(headers.get('link')).toBeNull();
    });

    it('GET /v2/cards/{id}: one card as data without meta, by UUID or slug; 404 problem when unknown', async () => {
      for (const id of [dragon.uuid, dragon.id]) {
        const { status, body } = await call(`/v2/cards/${id}?regions=NA&include=periods.7d`);
        expect(status).toBe(200);
        expect(Object.keys(body)).toEqual(['data']);
        expect((body as unknown as { data: CardV2 }).data).toMatchObject({
          id: dragon.uuid,
          slug: dragon.id,
        });
      }
      const graded = await call(`/v2/cards/${goblin.id}?graded=only`);
      expect((graded.body as unknown as { data: CardV2 }).data).toMatchObject({
        slug: goblin.id,
        variants: [],
      });
      expectProblem(await call('/v2/cards/no-such-card'), 404, 'NOT_FOUND', /no-such-card/);
      expectProblem(await call(`/v2/cards/${dragon.id}?limit=5`), 400, 'INVALID_REQUEST', /'limit'/);
    });
  });

  describe('markets and components', () => {
    /** The fields every market carries, whatever `include` asks for. */
    const MARKET_HEAD = ['region', 'currency', 'price', 'updated_at', 'change_24h_pct', 'source'];
    const nmOf = async (query: string) => {
      const { body } = await get(`variant_id=${nm.uuid}&${query}`);
      return body.data[0]!.variants[0]!;
    };

    it('gives every period with exactly the fields its window carries, and 7 days of history by default', async () => {
      const [m] = (await nmOf('')).markets;
      expect(Object.keys(m!)).toEqual([...MARKET_HEAD, 'periods', 'price_history']);
      expect(m).toMatchObject({ region: 'NA', currency: 'USD', updated_at: T_NOW });
      const full = [
        'change_pct',
        'avg',
        'min',
        'max',
        'stddev',
        'cov',
        'iqr',
        'trend_slope',
        'changes_count',
      ];
      expect(Object.keys(m!.periods!)).toEqual(['7d', '30d', '90d', '1y', 'all_time']);
      expect(Object.keys(m!.periods!['7d']!)).toEqual(full);
      expect(Object.keys(m!.periods!['30d']!)).toEqual([...full, 'range_position']);
      expect(Object.keys(m!.periods!['90d']!)).toEqual([...full, 'range_position']);
      expect(Object.keys(m!.periods!['1y']!)).toEqual(['min', 'max']);
      expect(Object.keys(m!.periods!['all_time']!)).toEqual(['min', 'max', 'min_date', 'max_date']);
      expect(m!.price_history!.map((x) => x.t)).toEqual([6, 5, 4, 3, 2, 1, 0].map((d) => T_NOW - d * DAY));
      expect(m!.price_history!.at(-1)!.p).toBe(m!.price);
    });

    it('sends only what include asks for, replacing the default', async () => {
      const [a] = (await nmOf('include=periods.30d')).markets;
      expect(Object.keys(a!.periods!)).toEqual(['30d']);
      expect(a).not.toHaveProperty('price_history');
      const [b] = (await nmOf('include=price_history.30d')).markets;
      expect(b).not.toHaveProperty('periods');
      expect(b!.price_history).toHaveLength(30);
      const [c] = (await nmOf('include=periods.all_time,periods.1y,price_history.1y')).markets;
      expect(Object.keys(c!.periods!)).toEqual(['1y', 'all_time']);
      expect(c!.price_history).toHaveLength(365);
      expect(c!.periods!['all_time']).toEqual({
        min: expect.any(Number),
        max: expect.any(Number),
        min_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        max_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      const [d] = (await nmOf('include=')).markets;
      expect(Object.keys(d!)).toEqual(MARKET_HEAD);
    });

    it('charges one unit per region beyond the first and one for graded=include, in the RateLimit header', async () => {
      const fresh = await newKey('starter');
      const remaining = async (q: string) => Number((await get(q, fresh)).headers.get('ratelimit-remaining'));
      expect(await remaining(`card_id=${dragon.id}`)).toBe(59);
      expect(await remaining(`card_id=${dragon.id}&regions=NA,EU,JP`)).toBe(56);
      expect(await remaining(`card_id=${dragon.id}&regions=NA,EU&graded=include`)).toBe(53);
    });
  });

  describe('graded variants', () => {
    const dragonVariants = async (query: string) =>
      variantSlugs((await get(`card_id=${dragon.id}&include=&${query}`)).body).sort();

    it('keeps raw and graded apart, as the graded parameter asks', async () => {
      expect(await dragonVariants('graded=exclude')).toEqual([nm.id, lp.id, jp.id].sort());
      expect(await dragonVariants('graded=only')).toEqual([psa10.id, psa9oc.id, bgs.id, authentic.id].sort());
      expect(await dragonVariants('graded=include')).toHaveLength(7);
      expect(await dragonVariants('grading_company=psa')).toEqual([psa10.id, psa9oc.id, authentic.id].sort());
      expect(await dragonVariants('grading_company=PSA&graded=include')).toEqual(
        [nm.id, lp.id, jp.id, psa10.id, psa9oc.id, authentic.id].sort(),
      );
      expect(await dragonVariants('grading_company=PSA&grade=10,authentic')).toEqual(
        [psa10.id, authentic.id].sort(),
      );
      expect(await dragonVariants('grading_company=CGC')).toEqual([]);
    });

    it('shows a graded variant with a null condition and its grading, a raw one the other way round', async () => {
      const { body } = await get(`card_id=${dragon.id}&graded=include&include=`);
      const byId = new Map(body.data[0]!.variants.map((v) => [v.id, v]));
      for (const v of byId.values()) {
        if (v.type === 'raw') expect(v).toMatchObject({ condition: expect.any(String), grading: null });
        else expect(v).toMatchObject({ type: 'graded', condition: null, grading: expect.any(Object) });
      }
      expect(byId.get(bgs.uuid)!.grading).toEqual({
        company: 'BGS',
        grade: 9.5,
        grade_label: 'Black Label',
        qualifier: null,
        canonical: 'BGS 9.5 Black Label',
      });
      expect(byId.get(psa9oc.uuid)!.grading).toEqual({
        company: 'PSA',
        grade: 9,
        grade_label: null,
        qualifier: 'OC',
        canonical: 'PSA 9 (OC)',
      });
      expect(byId.get(authentic.uuid)!.grading).toEqual({
        company: 'PSA',
        grade: null,
        grade_label: null,
        qualifier: null,
        canonical: 'PSA Authentic',
      });
      expect(byId.get(psa10.uuid)!.markets[0]!.price).toBe(900);
    });

    it('browses only cards that have a variant in the graded scope', async () => {
      expect(slugs((await get(`set=${SET.id}&graded=only&include=`)).body)).toEqual([dragon.id]);
      expect(slugs((await get(`set=${SET.id}&graded=only&order_by=price&include=`)).body)).toEqual([
        dragon.id,
      ]);
    });
  });

  describe('browse, search, sorting and language', () => {
    it('narrows variants by language without removing cards or changing the totals', async () => {
      const all = await get(`set=${SET.id}&limit=3&include=`);
      const japanese = await get(`set=${SET.id}&limit=3&include=&language=japanese`);
      expect(slugs(japanese.body)).toEqual(slugs(all.body));
      expect(japanese.body.meta).toMatchObject({ total: all.body.meta.total, has_more: true });
      expect(japanese.headers.get('x-total-count')).toBe(all.headers.get('x-total-count'));
      expect(japanese.body.meta.cursor).toEqual(all.body.meta.cursor); // the cursors are unchanged too
      const byPrice = await get(`set=${SET.id}&order_by=price&limit=100&include=`);
      const byPriceJapanese = await get(`set=${SET.id}&order_by=price&limit=100&include=&language=Japanese`);
      expect(slugs(byPriceJapanese.body)).toEqual(slugs(byPrice.body));
      expect(japanese.body.data.map((c) => c.variants.map((v) => v.slug))).toEqual([[], [jp.id], []]);
      expect(all.body.data[1]!.variants).toHaveLength(3); // without language: nm, lp and the Japanese one
    });

    it('orders by the primary market, highest first, unpriced cards last, and filters on min_price', async () => {
      const byPrice = slugs((await get(`set=${SET.id}&order_by=price&limit=100&include=`)).body);
      expect(byPrice[0]).toBe(dragon.id); // 10.xx for its near mint, the highest raw price
      expect(byPrice.slice(-8).sort()).toEqual(
        [knight.id, ...fillers.filter((_, i) => i % 3 === 2).map((c) => c.id)].sort(),
      );
      expect(byPrice).toHaveLength(ALL_CARDS.length);
      const priced = await get(`set=${SET.id}&min_price=1.5&include=`);
      expect(priced.body.meta.total).toBe(slugs(priced.body).length);
      expect(slugs(priced.body)).toContain(dragon.id);
      expect(slugs(priced.body)).not.toContain(goblin.id);
      // min_price reads the primary market only: nothing has EU prices but the dragon's near mint
      expect(slugs((await get(`set=${SET.id}&regions=EU,NA&min_price=0&include=`)).body)).toEqual([
        dragon.id,
      ]);
      const byChange = slugs((await get(`set=${SET.id}&order_by=24h&limit=2&include=`)).body);
      expect(byChange[0]).toBe(goblin.id); // +16.67 %
    });

    it('searches names with typo tolerance, best match first', async () => {
      expect(slugs((await get('q=Dragon&include=')).body)).toEqual([dragon.id]);
      expect(slugs((await get('q=dragn&include=')).body)).toEqual([dragon.id]);
      expect(slugs((await get('q=test&game=test%20game&include=')).body)).toEqual([dragon.id, knight.id]);
      expect(slugs((await get(`number=10&set=${SET.id}&include=`)).body)).toEqual([knight.id]);
    });
  });

  describe('cursor pagination', () => {
    const walk = async (query: string) => {
      const seen: string[] = [];
      let path: string | null = `/v2/cards?${query}`;
      let pages = 0;
      let last: ListBody | undefined;
      while (path) {
        const r = await call(path);
        expect(r.status).toBe(200);
        pages++;
        seen.push(...slugs(r.body));
        const link = r.headers.get('link');
        const next = link?.match(/<([^>]+)>; rel="next"/)?.[1] ?? null;
        // The Link header always agrees with meta.cursor.next, and exists only while more results do.
        expect(next === null ? null : new URLSearchParams(next.split('?')[1]).get('cursor')).toBe(
          r.body.meta.cursor.next,
        );
        expect(r.body.meta.has_more).toBe(next !== null);
        expect(r.body.meta.count).toBe(r.body.data.length);
        path = next;
        last = r.body;
      }
      return { seen, pages, last: last! };
    };

    it('walks every matching card exactly once, in order, following the Link header', async () => {
      const { seen, pages, last } = await walk(`set=${SET.id}&limit=4&include=`);
      expect(seen).toEqual(ALL_CARDS.map((c) => c.id));
      expect(pages).toBe(7);
      expect(last.meta).toMatchObject({
        total: 25,
        has_more: false,
        cursor: { next: null, prev: expect.any(String) },
      });
      const byPrice = await walk(`set=${SET.id}&limit=3&order_by=price&include=`);
      expect(byPrice.seen).toEqual(
        slugs((await get(`set=${SET.id}&limit=100&order_by=price&include=`)).body),
      );
      const search = await walk('q=filler&limit=5&include=');
      expect(search.seen.sort()).toEqual(fillers.map((c) => c.id).sort());
    });

    it('walks back with the prev cursors to the first page', async () => {
      const first = await get(`set=${SET.id}&limit=10&include=`);
      expect(first.body.meta.cursor.prev).toBeNull();
      const second = await get(`set=${SET.id}&limit=10&include=&cursor=${first.body.meta.cursor.next}`);
      expect(slugs(second.body)).toEqual(ALL_CARDS.slice(10, 20).map((c) => c.id));
      const back = await get(`set=${SET.id}&limit=10&include=&cursor=${second.body.meta.cursor.prev}`);
      expect(slugs(back.body)).toEqual(slugs(first.body));
      expect(back.body.meta.cursor.prev).toBeNull();
      expect(back.body.meta.cursor.next).not.toBeNull();
      expect(back.headers.get('link')).toMatch(/rel="next"/);
    });

    it('lets a walk change its page size or components, but not its filters', async () => {
      const first = await get(`set=${SET.id}&limit=4&include=`);
      const next = first.body.meta.cursor.next!;
      const bigger = await get(`set=${SET.id}&limit=8&include=periods&cursor=${next}`);
      expect(slugs(bigger.body)).toEqual(ALL_CARDS.slice(4, 12).map((c) => c.id));
      for (const changed of [
        `set=${SET.id}&order_by=price`,
        `set=${SET.id}&regions=EU`,
        'q=filler',
        `card_id=${dragon.id}`,
      ]) {
        expectProblem(await get(`${changed}&cursor=${next}`), 400, 'INVALID_REQUEST', /'cursor'/);
      }
    });

    it('refuses a tampered or made-up cursor with a 400 problem', async () => {
      const next = (await get(`set=${SET.id}&limit=4&include=`)).body.meta.cursor.next!;
      const [payload, mac] = next.split('.');
      const forged = Buffer.from(
        Buffer.from(payload!, 'base64url').toString().replace(/"b":0/, '"b":1'),
      ).toString('base64url');
      for (const bad of [`${forged}.${mac}`, `${payload}.${mac!.slice(1)}`, 'abc', `${next}x`]) {
        expectProblem(
          await get(`set=${SET.id}&limit=4&cursor=${encodeURIComponent(bad)}`),
          400,
          'INVALID_REQUEST',
          /altered/,
        );
      }
    });
  });

  describe('errors', () => {
    it('answers bad input with a problem naming the parameter and what it accepts', async () => {
      for (const [q, detail] of [
        ['colour=red', /'colour'.*no such parameter/],
        ['cardId=x', /'cardId'/],
        ['regions=NA,XX', /'regions'.*ISO 3166-1/],
        ['graded=maybe', /'graded'.*exclude, only, include/],
        ['grading_company=XYZ', /PSA, BGS, CGC, BCCG, BVG, SGC/],
        ['grading_company=PSA&graded=exclude', /'grading_company'/],
        ['grade=10', /'grade'.*grading_company/],
        ['include=periods.2y', /'include'/],
        ['language=Klingon', /'language'.*Japanese/],
        ['limit=0', /'limit'/],
        ['min_price=abc', /'min_price'/],
        ['order_by=name', /'order_by'.*price, 24h, 7d, 30d/],
        ['game=chess', /'game'.*test-game/],
      ] as const) {
        const r = await get(q);
        expectProblem(r, 400, 'INVALID_REQUEST', detail);
        expect(r.body.type).toMatch(/#invalid-request$/);
        expect(r.body.title).toBe('Invalid request');
      }
    });

    it('clamps limit to the plan and says so in meta.limit', async () => {
      const { body } = await get(`set=${SET.id}&limit=500&include=`, await newKey('free'));
      expect(body.meta.limit).toBe(20);
      expect(body.data).toHaveLength(20);
    });

    it('answers 401 without a valid key and 404 for unknown paths, as problems', async () => {
      expectProblem(await get('set=x', null), 401, 'MISSING_API_KEY');
      expectProblem(await get('set=x', 'tcg_wrong'), 401, 'INVALID_API_KEY');
      expectProblem(await call('/v2/sets'), 404, 'NOT_FOUND');
    });
  });
});

/** A market with no observations, as a default request shows it: every value null, nothing in the components. */
function unpricedMarket(region: string, currency: string) {
  return {
    region,
    currency,
    price: null,
    updated_at: null,
    change_24h_pct: null,
    source: null,
    periods: {},
    price_history: [],
  };
}
