import type { TestingModule } from '@nestjs/testing';
import { NotFoundError, PLANS } from '@tcg/domain';
import { PriceIngestRepository, refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { inProcessApp, useTestDatabase } from '@tcg/persistence/testing';
import { observed, rawVariant, testCard, tinyCatalogue } from '@tcg/persistence/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { Environment, validateEnvironment } from '../config/environment';
import { CardsService } from './cards.service';
import { parseCardV2Query } from './dto/card-v2-query.schema';
import { parseCardsV2Query } from './dto/cards-v2-query.schema';

const DAY = 86_400;
const T_NOW = Date.UTC(2026, 10, 1, 12) / 1000;

/**
 * The test game's set: the dragon (#7: Near Mint priced in NA and EU, a PSA 10 in NA) and four
 * fillers (#11 to #14), the first two priced.
 */
const cat = tinyCatalogue();
const [set, dragon, nm, psa10] = [cat.sets[0]!, cat.cards[0]!, cat.variants[0]!, cat.variants[1]!];
const fillers = ['A', 'B', 'C', 'D'].map((letter, i) => testCard(set, `Filler ${letter}`, String(11 + i)));
const fillerNms = fillers.map((c) => rawVariant(c, 'Near Mint', 'Normal', 'English'));
const IN_SET_ORDER = [dragon, ...fillers].map((c) => c.id);

/** What the assertions read of an answer; they compare the rest whole. */
interface V2Page {
  data: (Record<string, unknown> & {
    slug: string;
    variants: (Record<string, unknown> & { markets: Record<string, unknown>[] })[];
  })[];
  meta: Record<string, unknown> & { total: number | null; cursor: Record<'next' | 'prev', string | null> };
}

/**
 * api-v2's card service with its real repositories: what GET /v2/cards and /v2/cards/{id} answer
 * (body and the headers the service sets), without the gateway. The end-to-end suite keeps what
 * needs the processes (statuses, problem bodies, rate-limit headers, the gateway's links).
 */
describe('api-v2 card service (in process, PostgreSQL)', () => {
  let ds: DataSource;
  const apps: TestingModule[] = [];

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    await writeCatalogue(ds, {
      ...cat,
      cards: [dragon, ...fillers],
      variants: [...cat.variants, ...fillerNms],
    });
    await new PriceIngestRepository(ds).ingest([
      observed(nm, T_NOW - DAY, 1100),
      observed(nm, T_NOW, 1200),
      observed(nm, T_NOW - DAY, 900, 'EU'),
      observed(nm, T_NOW, 950, 'EU'),
      observed(psa10, T_NOW, 90_000),
      observed(fillerNms[0]!, T_NOW, 100),
      observed(fillerNms[1]!, T_NOW, 101),
    ]);
    await refreshSummaries(ds);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  /** The service of an api-v2 started with `variables`, and what it answers as JSON. */
  const serviceOf = async (variables: Record<string, string> = {}) => {
    const app = await inProcessApp(
      AppModule,
      { type: Environment, validate: validateEnvironment },
      variables,
    );
    apps.push(app);
    const service = app.get(CardsService);
    return {
      list: async (query: Record<string, string>) => {
        const answer = await service.list(parseCardsV2Query(query, PLANS.starter.maxLimit), query);
        return { body: JSON.parse(answer.json.join('')) as V2Page, headers: answer.headers };
      },
      one: async (id: string, query: Record<string, string> = {}) =>
        JSON.parse((await service.one(id, parseCardV2Query(query))).json) as Record<string, unknown>,
    };
  };

  describe('counting totals within its budget (the default 250 ms)', () => {
    let v2: Awaited<ReturnType<typeof serviceOf>>;
    beforeAll(async () => {
      v2 = await serviceOf();
    });

    it('looks a card up by UUID or slug in the v2 shape: nested game and set, external ids, raw variants', async () => {
      const { body, headers } = await v2.list({ card_id: dragon.uuid });
      expect({ headers, meta: body.meta }).toEqual({
        headers: { 'X-Total-Count': '1' },
        meta: { count: 1, total: 1, limit: 20, has_more: false, cursor: { next: null, prev: null } },
      });
      const { variants, ...card } = body.data[0]!;
      expect(card).toEqual({
        id: dragon.uuid,
        slug: dragon.id,
        name: 'Test Dragon',
        game: { id: 'test-game', name: 'Test Game' },
        set: { id: set.id, name: 'First Edition' },
        number: '7',
        rarity: 'Rare',
        external_ids: { vendor: '1007', imagedb: null, openset: null },
        details: null,
      });
      // graded defaults to exclude: the slab only when asked for
      expect(variants.map((v) => v['slug'])).toEqual([nm.id]);
      expect(variants[0]).toMatchObject({
        id: nm.uuid,
        type: 'raw',
        condition: 'Near Mint',
        grading: null,
        external_ids: { vendor_sku: 'SKU-NM' },
      });
      expect(variants[0]!.markets).toMatchObject([
        { region: 'NA', currency: 'USD', price: 12, updated_at: T_NOW, change_24h_pct: 9.09 },
      ]);
      const graded = (await v2.list({ card_id: dragon.id, graded: 'only' })).body.data[0]!;
      expect(graded.variants.map((v) => [v['slug'], v['grading']])).toEqual([
        [psa10.id, expect.objectContaining({ company: 'PSA', grade: 10, canonical: 'PSA 10' })],
      ]);

      const one = await v2.one(dragon.id, { include: 'periods.7d' });
      expect(Object.keys(one)).toEqual(['data']);
      expect(one['data']).toMatchObject({ id: dragon.uuid, slug: dragon.id });
      await expect(v2.one('no-such-card')).rejects.toBeInstanceOf(NotFoundError);
    });

    it("walks a set's pages with the cursors its answers carry, forward and back, counted on the first", async () => {
      const first = await v2.list({ set: set.id, limit: '2', include: '' });
      expect(first.body.data.map((c) => c.slug)).toEqual(IN_SET_ORDER.slice(0, 2));
      expect(first.body.meta).toMatchObject({ count: 2, total: 5, has_more: true, cursor: { prev: null } });
      const next = first.body.meta.cursor.next!;
      expect(first.headers).toEqual({
        'X-Total-Count': '5',
        Link: `</v2/cards?set=${set.id}&limit=2&include=&cursor=${encodeURIComponent(next)}>; rel="next"`,
      });

      const seen = [...first.body.data.map((c) => c.slug)];
      let page = first;
      while (page.body.meta.cursor.next) {
        page = await v2.list({ set: set.id, limit: '2', include: '', cursor: page.body.meta.cursor.next });
        seen.push(...page.body.data.map((c) => c.slug));
        expect(page.body.meta.total).toBe(5); // carried by the cursor
      }
      expect(seen).toEqual(IN_SET_ORDER);
      expect(page.body.meta).toMatchObject({ count: 1, has_more: false, cursor: { next: null } });

      const second = await v2.list({ set: set.id, limit: '2', include: '', cursor: next });
      const prev = second.body.meta.cursor.prev;
      expect(prev).toEqual(expect.any(String));
      const back = await v2.list({ set: set.id, limit: '2', include: '', cursor: prev! });
      expect(back.body.data.map((c) => c.slug)).toEqual(IN_SET_ORDER.slice(0, 2));
      expect(back.body.meta.cursor.prev).toBeNull();
      // A cursor belongs to its walk: another filter refuses it.
      await expect(v2.list({ set: set.id, order_by: 'price', cursor: next })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
      });
    });

    it('gives one market per region in request order, each from its own observations, never converted', async () => {
      const nmOf = async (query: Record<string, string>) =>
        (await v2.list({ variant_id: nm.uuid, ...query })).body.data[0]!.variants[0]!;
      const { markets } = await nmOf({ regions: 'us,EU,mx,JP', include: 'periods.7d,price_history' });
      expect(markets.map((m) => `${m.region} ${m.currency} ${m.price}`)).toEqual([
        'US USD 12',
        'EU EUR 9.5',
        'MX MXN null',
        'JP JPY null',
      ]);
      // US is served from NA's observations.
      const [na] = (await nmOf({ include: 'periods.7d,price_history' })).markets;
      expect(markets[0]).toEqual({ ...na, region: 'US' });
      expect(markets[1]).toMatchObject({ updated_at: T_NOW, change_24h_pct: 5.56, source: 'imported' });
      expect(markets[1]!.price_history).toEqual([
        { t: T_NOW - DAY, p: 9 },
        { t: T_NOW, p: 9.5 },
      ]);
      // Markets without observations: every value null, nothing in the components.
      const unpriced = { price: null, updated_at: null, change_24h_pct: null, source: null, periods: {} };
      for (const m of markets.slice(2))
        expect(m).toEqual({ region: m.region, currency: m.currency, ...unpriced, price_history: [] });
      // A variant without EU observations gets a null EU price, not NA's.
      const filler = (await v2.list({ variant_id: fillerNms[0]!.uuid, regions: 'EU,NA', include: '' })).body;
      expect(filler.data[0]!.variants[0]!.markets.map((m) => m.price)).toEqual([null, 1]);
    });
  });

  it('sends a null total and no X-Total-Count when counting outlasts its budget, and still pages', async () => {
    const v2 = await serviceOf({ TOTAL_COUNT_BUDGET_MS: '0' });
    const { body, headers } = await v2.list({ set: set.id, limit: '2', include: '' });
    expect(body.meta).toMatchObject({ count: 2, total: null, has_more: true });
    expect(Object.keys(headers)).toEqual(['Link']);
    expect(headers['Link']).toMatch(/rel="next"/);
  });
});
