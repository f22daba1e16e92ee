import {
  DAY,
  GAME,
  raw,
  seedCatalogue,
  series,
  SET,
  STARTER_AFTER_ONE_REQUEST,
  T_NOW,
  TEST_CARDS,
} from './fixtures';
import { fetchWithKey } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

const { dragon, goblin, goblinNm, jp, knight, knightNm, lp, nm, psa10 } = TEST_CARDS;

const foil = raw(dragon, 'Near Mint', 'Foil', 'English');

interface VariantBody extends Record<string, unknown> {
  id: string;
  price: number | null;
  priceHistory: { p: number; t: number }[] | null;
}
interface Body {
  data: { id: string; variants: VariantBody[] }[];
  meta: { total: number; limit: number; offset: number; hasMore: boolean };
}

describe('GET /v1/cards through the gateway', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    await seedCatalogue(
      [dragon, knight, goblin],
      [nm, lp, foil, jp, psa10, knightNm, goblinNm],
      [
        { variantUuid: nm.uuid, ...series(1000) },
        { variantUuid: lp.uuid, ...series(800) },
        // +25 % in every change window, against the goblin's +16.67 %: two cards to order by them.
        { variantUuid: foil.uuid, t: [T_NOW - 11 * DAY, T_NOW - 10 * DAY], p: [2000, 2500] },
        { variantUuid: psa10.uuid, t: [T_NOW], p: [90_000] },
        { variantUuid: goblinNm.uuid, t: [T_NOW - 2 * DAY, T_NOW], p: [30, 35] },
      ],
    );
    stack = await startStack();
    key = await newKey('enterprise');
  });
  afterAll(async () => {
    await stack.close();
  });

  const get = async (
    query: string,
    k = key,
  ): Promise<{ status: number; body: Body & { error?: string; code?: string } }> => {
    const res = await fetchWithKey(`${stack.gatewayUrl}/v1/cards?${query}`, k);
    return { status: res.status, body: (await res.json()) as Body & { error?: string; code?: string } };
  };
  const ids = (b: Body) => b.data.map((c) => c.id);
  const variantIds = (b: Body) => b.data.flatMap((c) => c.variants.map((v) => v.id));

  it('looks a card up by slug, UUID, vendor, openset and imagedb id, with its raw variants only', async () => {
    for (const q of [
      `cardId=${dragon.id}`,
      `cardId=${dragon.uuid.toUpperCase()}`,
      'vendorId=1007',
      'opensetId=abc123',
      `imagedbId=${dragon.imagedbId}`,
    ]) {
      const { status, body } = await get(q);
      expect(status).toBe(200);
      expect(ids(body)).toEqual([dragon.id]);
      expect(variantIds(body).sort()).toEqual([nm.id, lp.id, foil.id, jp.id].sort());
    }
    const { body } = await get(`cardId=${dragon.id}`);
    expect(body.data[0]).toMatchObject({
      uuid: dragon.uuid,
      name: 'Test Dragon',
      game: GAME.id,
      set: SET.id,
      set_name: 'First Edition',
      number: '7',
      rarity: 'Rare',
      details: null,
    });
    const japanese = body.data[0]!.variants.find((v) => v.id === jp.id)!;
    expect(japanese).toMatchObject({
      printing: 'Normal - Japanese',
      language: 'Japanese',
      condition: 'Near Mint',
      price: null,
      lastUpdated: null,
      priceHistory: [],
    });
  });

  it('looks up one variant by id or vendor SKU, and the most specific identifier wins', async () => {
    expect(variantIds((await get(`variantId=${lp.id}`)).body)).toEqual([lp.id]);
    expect(variantIds((await get(`variantId=${lp.uuid}&language=japanese`)).body)).toEqual([lp.id]); // language ignored
    expect(variantIds((await get('vendorSkuId=SKU-NM')).body)).toEqual([nm.id]);
    expect(variantIds((await get(`variantId=${lp.id}&vendorSkuId=SKU-NM&cardId=${goblin.id}`)).body)).toEqual(
      [lp.id],
    );
    expect(ids((await get(`cardId=${goblin.id}&vendorId=1007`)).body)).toEqual([goblin.id]);
    expect((await get('cardId=no-such-card')).body).toMatchObject({
      data: [],
      meta: { total: 0, hasMore: false },
    });
    // A card without a price in NA is left out of a lookup, as out of a browse, unless asked for.
    expect((await get(`cardId=${knight.id}`)).body).toMatchObject({ data: [], meta: { total: 0 } });
    expect(ids((await get(`cardId=${knight.id}&include_null_prices=true`)).body)).toEqual([knight.id]);
    // A lookup's later page is empty, its total still counts the card.
    expect((await get(`cardId=${dragon.id}&offset=1`)).body).toMatchObject({
      data: [],
      meta: { total: 1, offset: 1, hasMore: false },
    });
  });

  it('browses a set by card number, dropping unpriced cards unless asked, with paging', async () => {
    const priced = await get(`game=Test%20Game&set=${SET.id}`);
    expect(ids(priced.body)).toEqual([goblin.id, dragon.id]); // 2 before 7; the unpriced knight is dropped
    expect(priced.body.meta).toEqual({ total: 2, limit: 20, offset: 0, hasMore: false });
    const all = await get(`set=${SET.id}&include_null_prices=true&limit=2`);
    expect(ids(all.body)).toEqual([goblin.id, dragon.id]);
    expect(all.body.meta).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const next = await get(`set=${SET.id}&include_null_prices=true&limit=2&offset=2`);
    expect(ids(next.body)).toEqual([knight.id]);
    expect(next.body.meta).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
    // Full pages and pages past the end count the matches (priced cards: from the summaries).
    for (const game of ['', `&game=${GAME.id}`]) {
      const first = await get(`set=${SET.id}&limit=1${game}`);
      expect(ids(first.body)).toEqual([goblin.id]);
      expect(first.body.meta).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
      const beyond = await get(`set=${SET.id}&limit=1&offset=5${game}`);
      expect(beyond.body).toMatchObject({ data: [], meta: { total: 2, offset: 5, hasMore: false } });
    }
    expect((await get(`game=${GAME.id}&limit=1&condition=LP`)).body.meta.total).toBe(1);
    expect((await get(`game=${GAME.id}&limit=1&include_null_prices=true&offset=9`)).body.meta.total).toBe(3);
  });

  it('filters variants by condition (short or long), printing and language, never removing cards for language', async () => {
    expect(variantIds((await get(`cardId=${dragon.id}&condition=lp`)).body)).toEqual([lp.id]);
    expect(
      variantIds(
        (await get(`cardId=${dragon.id}&condition=Lightly%20Played,NM&printing=normal`)).body,
      ).sort(),
    ).toEqual([nm.id, lp.id, jp.id].sort());
    expect(variantIds((await get(`cardId=${dragon.id}&printing=FOIL`)).body)).toEqual([foil.id]);
    expect(variantIds((await get(`cardId=${dragon.id}&language=japanese`)).body)).toEqual([jp.id]);
    const none = await get(`set=${SET.id}&language=Korean`);
    expect(ids(none.body)).toEqual([goblin.id, dragon.id]);
    expect(none.body.data.every((c) => c.variants.length === 0)).toBe(true);
    expect(none.body.meta.total).toBe(2);
  });

  it('narrows to variants updated after a time and drops cards left with none', async () => {
    const { body } = await get(`set=${SET.id}&updated_after=${T_NOW - DAY}`);
    expect(ids(body)).toEqual([goblin.id, dragon.id]);
    expect(variantIds(body).sort()).toEqual([goblinNm.id, nm.id, lp.id].sort());
    expect(ids((await get(`set=${SET.id}&updated_after=${T_NOW}`)).body)).toEqual([]);
  });

  it('returns statistics that agree with the returned one-year history', async () => {
    const { body } = await get(`variantId=${nm.id}&priceHistoryDuration=1y`);
    const v = body.data[0]!.variants[0]!;
    const h = v.priceHistory!;
    expect(h).toHaveLength(365);
    expect(h.at(-1)).toEqual({ p: v.price, t: T_NOW });
    const windowOf = (days: number) => h.filter((x) => x.t > T_NOW - days * DAY).map((x) => x.p);
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const [days, suffix] of [
      [7, ''],
      [30, '30d'],
      [90, '90d'],
    ] as const) {
      const xs = windowOf(days);
      expect(v[`avgPrice${suffix}`]).toBeCloseTo(avg(xs), 2);
      expect(v[`minPrice${days}d`]).toBe(Math.min(...xs));
      expect(v[`maxPrice${days}d`]).toBe(Math.max(...xs));
    }
    expect(v['minPrice1y']).toBe(Math.min(...h.map((x) => x.p)));
    expect(v['maxPrice1y']).toBe(Math.max(...h.map((x) => x.p)));
    const ref = h.find((x) => x.t === T_NOW - 7 * DAY)!.p;
    expect(v['priceChange7d']).toBeCloseTo(((v.price! - ref) / ref) * 100, 2);
    expect(v.priceHistory30d).toHaveLength(30);
  });

  it('sends history for the duration asked for, back from the latest observation', async () => {
    for (const [duration, days] of [
      ['7d', 7],
      ['30d', 30],
      ['90d', 90],
      ['180d', 180],
      ['1y', 365],
    ] as const) {
      const { body } = await get(`variantId=${nm.id}&priceHistoryDuration=${duration}`);
      const v = body.data[0]!.variants[0]!;
      expect(v.priceHistory).toHaveLength(days);
      expect(v.priceHistory![0]!.t).toBe(T_NOW - (days - 1) * DAY);
      expect(v.priceHistory30d).toHaveLength(30); // the deprecated field keeps its 30 days
    }
  });

  it('wraps every answer in data, meta and the caller usage after this request', async () => {
    const fresh = await newKey('starter');
    const first = await get(`cardId=${dragon.id}`, fresh);
    const second = await get('cardId=no-such-card', fresh);
    expect(Object.keys(first.body)).toEqual(['data', 'meta', '_metadata']);
    expect((first.body as unknown as { _metadata: unknown })._metadata).toEqual(STARTER_AFTER_ONE_REQUEST);
    expect(
      (second.body as unknown as { _metadata: { apiRequestsUsed: number } })._metadata.apiRequestsUsed,
    ).toBe(2);
  });

  it('clamps limit to the plan and rejects unrecognised values with 400 naming the parameter', async () => {
    const free = await get(`set=${SET.id}&limit=500`, await newKey('free'));
    expect(free.body.meta.limit).toBe(20);
    for (const [q, message] of [
      ['language=Klingon', "Invalid value 'Klingon' for 'language'. Accepted: English, Japanese"],
      ['condition=Mint', "Invalid value 'Mint' for 'condition'. Accepted: Near Mint, NM"],
      [
        'priceHistoryDuration=2y',
        "Invalid value '2y' for 'priceHistoryDuration'. Accepted: 7d, 30d, 90d, 180d, 1y.",
      ],
      ['include_statistics=7d,5d', "Invalid value '5d' for 'include_statistics'"],
      ['limit=abc', "Invalid value 'abc' for 'limit'. Accepted: an integer of at least 1."],
      [
        'include_null_prices=maybe',
        "Invalid value 'maybe' for 'include_null_prices'. Accepted: true, false.",
      ],
      ['game=chess', "Invalid value 'chess' for 'game'"],
    ]) {
      const { status, body } = await get(q!);
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.stringContaining(message!), code: 'INVALID_REQUEST' });
    }
  });

  it('orders by the highest-priced returned variant, either way, unpriced cards last', async () => {
    // dragon's top variant is the foil (25.00, +25 % in 24h); goblin's only one is 0.35, +16.67 % in 24h
    expect(ids((await get(`set=${SET.id}&orderBy=price`)).body)).toEqual([dragon.id, goblin.id]);
    expect(ids((await get(`set=${SET.id}&orderBy=price&order=asc`)).body)).toEqual([goblin.id, dragon.id]);
    expect(ids((await get(`set=${SET.id}&orderBy=price&order=asc&include_null_prices=true`)).body)).toEqual([
      goblin.id,
      dragon.id,
      knight.id,
    ]);
    expect(ids((await get(`set=${SET.id}&orderBy=24h`)).body)).toEqual([dragon.id, goblin.id]);
    expect(ids((await get(`set=${SET.id}&orderBy=24h&order=asc`)).body)).toEqual([goblin.id, dragon.id]);
    // The unpriced knight has no change at all: last either way.
    for (const order of ['desc', 'asc'])
      expect(
        ids((await get(`set=${SET.id}&orderBy=24h&order=${order}&include_null_prices=true`)).body).at(-1),
      ).toBe(knight.id);
  });

  it('orders by each change window of the highest-priced returned variant, either way, nulls last', async () => {
    for (const [window, field] of [
      ['24h', 'priceChange24hr'],
      ['7d', 'priceChange7d'],
      ['30d', 'priceChange30d'],
      ['90d', 'priceChange90d'],
    ] as const) {
      for (const [order, printing] of [
        ['desc', ''],
        ['asc', ''],
        ['desc', '&printing=normal'],
        ['asc', '&printing=normal'],
      ] as const) {
        const { status, body } = await get(
          `set=${SET.id}&orderBy=${window}&order=${order}&include_null_prices=true${printing}`,
        );
        expect(status).toBe(200);
        const values = body.data.map((c) => {
          const top = c.variants.filter((v) => v.price !== null).sort((x, y) => y.price! - x.price!)[0];
          return top ? (top[field] as number | null) : null;
        });
        const known = values.filter((v): v is number => v !== null);
        // Two cards have a change in every window, and they differ, with or without the printing
        // filter (which ranks by another variant, through another join): the order is then
        // something a wrong direction would break on either path.
        expect(new Set(known).size).toBeGreaterThanOrEqual(2);
        expect({ window, order, printing, values }).toEqual({
          window,
          order,
          printing,
          values: [
            ...known.sort((x, y) => (order === 'desc' ? y - x : x - y)),
            ...values.filter((v) => v === null),
          ],
        });
      }
    }
  });

  it('keeps only cards whose highest-priced returned variant reaches min_price', async () => {
    expect(ids((await get(`set=${SET.id}&min_price=1`)).body)).toEqual([dragon.id]);
    expect(ids((await get(`set=${SET.id}&min_price=25`)).body)).toEqual([dragon.id]);
    expect(ids((await get(`set=${SET.id}&min_price=25&printing=normal`)).body)).toEqual([]); // the foil no longer counts
    const { body } = await get(`set=${SET.id}&min_price=30`);
    expect(body).toMatchObject({ data: [], meta: { total: 0 } });
    for (const q of ['orderBy=name', 'order=sideways', 'min_price=-1', 'min_price=1.234']) {
      const res = await get(q);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_REQUEST');
    }
  });

  describe('POST /v1/cards (batch)', () => {
    const post = async (body: string, k = key, query = '') => {
      const res = await fetch(`${stack.gatewayUrl}/v1/cards${query}`, {
        method: 'POST',
        headers: { 'x-api-key': k, 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: (await res.json()) as Body & { error?: string; code?: string } };
    };

    it('answers in request order, each card once, with per-item filters', async () => {
      const { status, body } = await post(
        JSON.stringify([
          { cardId: goblin.id },
          { vendorId: '1007', condition: 'LP' },
          { cardId: goblin.uuid },
          { cardId: 'no-such-card' },
        ]),
      );
      expect(status).toBe(200);
      expect(ids(body)).toEqual([goblin.id, dragon.id]);
      expect(body.data[1]!.variants.map((v) => v.id)).toEqual([lp.id]);
      expect(body.meta).toEqual({ total: 2, limit: 4, offset: 0, hasMore: false });
    });

    it('resolves every identifier GET takes, in the same places GET looks them up', async () => {
      for (const item of [
        { cardId: dragon.id },
        { cardId: dragon.uuid.toUpperCase() },
        { vendorId: '1007' },
        { opensetId: 'abc123' },
        { imagedbId: dragon.imagedbId },
      ]) {
        const { status, body } = await post(JSON.stringify([item]));
        expect(status).toBe(200);
        expect(ids(body)).toEqual([dragon.id]);
        expect(variantIds(body).sort()).toEqual([nm.id, lp.id, foil.id, jp.id].sort());
      }
      for (const item of [{ variantId: lp.id }, { variantId: lp.uuid }, { vendorSkuId: 'SKU-LP' }])
        expect(variantIds((await post(JSON.stringify([item]))).body)).toEqual([lp.id]);
    });

    it('returns just the variant a variant id or vendor SKU names, and drops cards unchanged since updated_after', async () => {
      const { body } = await post(
        JSON.stringify([
          { vendorSkuId: 'SKU-LP' },
          { variantId: goblinNm.uuid, updated_after: T_NOW + 1 },
          { cardId: dragon.id, printing: 'foil' },
        ]),
      );
      expect(ids(body)).toEqual([dragon.id]);
      expect(variantIds(body)).toEqual([lp.id]); // the dragon's first lookup (the SKU) wins; its foil item is a duplicate
      const changed = await post(JSON.stringify([{ variantId: goblinNm.id, updated_after: T_NOW - 1 }]));
      expect(variantIds(changed.body)).toEqual([goblinNm.id]);
    });

    it('takes presentation options from the query string', async () => {
      const { body } = await post(
        JSON.stringify([{ variantId: nm.id }]),
        key,
        '?priceHistoryDuration=30d&include_statistics=7d',
      );
      const v = body.data[0]!.variants[0]!;
      expect(v.priceHistory).toHaveLength(30);
      expect(v['avgPrice30d']).toBeNull();
    });

    it.each([
      ['[]', 'The batch is empty'],
      ['{}', 'must be a JSON array'],
      ['[{"cardId":"a","vendorId":"b"}]', 'item 0 has several identifiers (cardId, vendorId)'],
      ['[{"printing":"Foil"}]', 'item 0 has no identifier'],
      ['[{"cardId":"a","condition":"Mint"}]', "Invalid value 'Mint' for 'item 0.condition'"],
      ['[{"cardId": ', ''],
    ])('%s is a 400 in the v1 shape', async (payload, message) => {
      const { status, body } = await post(payload);
      expect(status).toBe(400);
      expect(body).toEqual({ error: expect.stringContaining(message), code: 'INVALID_REQUEST' });
    });

    it('refuses batches over the plan cap or over 200 with 413', async () => {
      const items = (n: number) => JSON.stringify(Array.from({ length: n }, () => ({ cardId: goblin.id })));
      expect((await post(items(20), await newKey('free'))).status).toBe(200);
      const free = await post(items(21), await newKey('free'));
      expect(free.status).toBe(413);
      expect(free.body).toEqual({
        error: 'At most 20 items per batch on the free plan; this batch has 21.',
        code: 'PAYLOAD_TOO_LARGE',
      });
      const enterprise = await newKey('enterprise');
      expect((await post(items(200), enterprise)).status).toBe(200);
      expect((await post(items(201), enterprise)).status).toBe(413);
    });
  });
});
