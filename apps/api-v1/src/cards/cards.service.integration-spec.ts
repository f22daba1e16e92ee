import type { TestingModule } from '@nestjs/testing';
import { PLANS } from '@tcg/domain';
import { PriceIngestRepository, refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { inProcessApp, useTestDatabase } from '@tcg/persistence/testing';
import { observed, rawVariant, testCard, tinyCatalogue } from '@tcg/persistence/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../app.module';
import { toUsageMetadata } from '../common/decorators/usage.decorator';
import { Environment, validateEnvironment } from '../config/environment';
import { CardsService } from './cards.service';
import { parseCardsQuery } from './dto/cards-query.schema';

const DAY = 86_400;
const T_NOW = Date.UTC(2026, 10, 1, 12) / 1000;

/** The test game's set: the dragon (#7) with a Near Mint and a PSA 10, a goblin (#2) and an unpriced knight (#10). */
const cat = tinyCatalogue();
const [set, dragon, nm, psa10] = [cat.sets[0]!, cat.cards[0]!, cat.variants[0]!, cat.variants[1]!];
const goblin = testCard(set, 'Tiny Goblin', '2');
const knight = testCard(set, 'Test Knight', '10');
const goblinNm = rawVariant(goblin, 'Near Mint', 'Normal', 'English', 'SKU-GOBLIN');
const knightLp = rawVariant(knight, 'Lightly Played', 'Normal', 'English');

/** A starter key's usage, this request counted, as the gateway reports it. */
const once = (limit: number) => ({ limit, used: 1, resetSeconds: 60 });
const usage = toUsageMetadata({ plan: 'starter', minute: once(60), day: once(2000), month: once(30_000) });

interface V1Variant extends Record<string, unknown> {
  id: string;
  price: number | null;
}
interface V1Page {
  data: (Record<string, unknown> & { id: string; variants: V1Variant[] })[];
  meta: { total: number; limit: number; offset: number; hasMore: boolean };
}

/**
 * api-v1's card service as its app builds it (AppModule: the service core, the persistence
 * module and every feature module), in process on this worker's test database: what GET and
 * POST /v1/cards answer, before the gateway adds `_metadata`. The end-to-end suite keeps what
 * needs the processes (statuses, the gateway's usage, quotas).
 */
describe('api-v1 card service (in process, PostgreSQL)', () => {
  let ds: DataSource;
  let app: TestingModule;
  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    const variants = [...cat.variants, goblinNm, knightLp];
    await writeCatalogue(ds, { ...cat, cards: [dragon, goblin, knight], variants });
    // The dragon: 9.00 eight days back, 11.00 yesterday, 12.00 now; the slab 900.00; the goblin 0.35.
    await new PriceIngestRepository(ds).ingest([
      observed(nm, T_NOW - 8 * DAY, 900),
      observed(nm, T_NOW - DAY, 1100),
      observed(nm, T_NOW, 1200),
      observed(psa10, T_NOW, 90_000),
      observed(goblinNm, T_NOW, 35),
    ]);
    await refreshSummaries(ds);
    app = await inProcessApp(
      AppModule,
      { type: Environment, validate: validateEnvironment },
      // The alert routes' box: a key of the test's own, no local key file.
      { ALERT_SECRET_KEY: `medium:${Buffer.alloc(32, 7).toString('base64')}` },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The body the service writes for GET /v1/cards?<query> on the enterprise plan. */
  const search = async (query: Record<string, string>): Promise<V1Page> =>
    JSON.parse(
      (await app.get(CardsService).search(parseCardsQuery(query, PLANS.enterprise.maxLimit))).json.join(''),
    ) as V1Page;
  const ids = (page: V1Page) => page.data.map((c) => c.id);

  it('looks a card up by slug, UUID, vendor id or SKU: its fields, its raw variants, prices in dollars', async () => {
    const page = await search({ cardId: dragon.id });
    expect(page.meta).toEqual({ total: 1, limit: 20, offset: 0, hasMore: false });
    const [card] = page.data;
    expect(card).toMatchObject({
      id: dragon.id,
      uuid: dragon.uuid,
      name: 'Test Dragon',
      game: 'test-game',
      set: set.id,
      set_name: 'First Edition',
      number: '7',
      rarity: 'Rare',
      vendorId: '1007',
    });
    // Graded variants are v2's: the slab is not among v1's.
    expect(card!.variants).toHaveLength(1);
    const [variant] = card!.variants;
    expect(variant).toMatchObject({
      id: nm.id,
      uuid: nm.uuid,
      condition: 'Near Mint',
      vendorSkuId: 'SKU-NM',
      lastUpdated: T_NOW,
    });
    // Dollars at the edge (cents at rest); the statistics and the 7 days of history of the series.
    expect(variant).toMatchObject({ price: 12, priceChange24hr: 9.09, priceChange7d: 33.33, minPrice7d: 11 });
    expect(variant!['priceHistory']).toEqual([
      { p: 11, t: T_NOW - DAY },
      { p: 12, t: T_NOW },
    ]);
    for (const [name, value] of [
      ['cardId', dragon.uuid.toUpperCase()],
      ['vendorId', '1007'],
      ['vendorSkuId', 'SKU-NM'],
    ])
      expect(ids(await search({ [name!]: value! }))).toEqual([dragon.id]);
    expect(await search({ cardId: 'no-such-card' })).toEqual({
      data: [],
      meta: { total: 0, limit: 20, offset: 0, hasMore: false },
    });
  });

  it('answers card lookups that arrive together (read in one statement) as each alone', async () => {
    const lookups: Record<string, string>[] = [
      { cardId: dragon.id },
      { cardId: knight.uuid },
      { cardId: goblin.uuid.toUpperCase() },
      { cardId: knight.id, include_null_prices: 'true' },
      { cardId: dragon.uuid, condition: 'LP' },
      { cardId: knight.uuid, include_null_prices: 'true', condition: 'LP' },
      { cardId: 'no-such-card' },
    ];
    const alone: V1Page[] = [];
    for (const query of lookups) alone.push(await search(query));
    // An unpriced card only when asked for; a card without a variant the filter returns, never.
    expect(alone.map(ids)).toEqual([[dragon.id], [], [goblin.id], [knight.id], [], [knight.id], []]);
    expect(alone.map((page) => page.meta.total)).toEqual([1, 0, 1, 1, 0, 1, 0]);
    expect(await Promise.all([...lookups, ...lookups].map(search))).toEqual([...alone, ...alone]);
  });

  it('browses a set by number, with paging, unpriced cards only when asked', async () => {
    const priced = await search({ game: 'Test Game', set: set.id });
    expect(ids(priced)).toEqual([goblin.id, dragon.id]);
    expect(priced.meta.total).toBe(2);
    const all = await search({ set: set.id, include_null_prices: 'true', limit: '2' });
    expect(ids(all)).toEqual([goblin.id, dragon.id]);
    expect(all.meta).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
    const knightOnly = await search({ set: set.id, include_null_prices: 'true', limit: '2', offset: '2' });
    expect(knightOnly.data.map((c) => [c.id, c.variants.map((v) => v.price)])).toEqual([[knight.id, [null]]]);
  });

  it('finds names, typos included, and unpriced cards whatever include_null_prices says', async () => {
    expect(ids(await search({ q: 'dragon' }))).toEqual([dragon.id]);
    expect(ids(await search({ q: 'Test Dragn' }))[0]).toBe(dragon.id);
    for (const nulls of [{}, { include_null_prices: 'false' }] as Record<string, string>[]) {
      const page = await search({ q: 'knight', ...nulls });
      expect(page.data.map((c) => [c.id, c.variants.map((v) => v.price)])).toEqual([[knight.id, [null]]]);
    }
  });

  it('narrows a browse to a card number within its set', async () => {
    expect(ids(await search({ set: set.id, number: '7' }))).toEqual([dragon.id]);
    expect(ids(await search({ set: set.id, number: '10', include_null_prices: 'true' }))).toEqual([
      knight.id,
    ]);
    expect(ids(await search({ set: set.id, number: '99' }))).toEqual([]);
  });

  it('sends unrequested statistics windows as null and can leave history out', async () => {
    const page = await search({ variantId: nm.id, include_statistics: '7d', include_price_history: 'false' });
    const [variant] = page.data[0]!.variants;
    expect(variant!['avgPrice']).toBe(11.5);
    expect([variant!['avgPrice30d'], variant!['minPriceAllTime'], variant!['priceHistory']]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('answers a batch in request order, each card once, with per-item filters and the query string’s options', async () => {
    const items = [
      { cardId: goblin.id },
      { vendorId: '1007', condition: 'LP' },
      { cardId: goblin.uuid },
      { cardId: 'no-such-card' },
      { variantId: nm.id },
    ];
    const page = JSON.parse(
      (await app.get(CardsService).batch(items, { include_price_history: 'false' }, usage)).join(''),
    ) as V1Page;
    expect(page.meta).toEqual({ total: 2, limit: 5, offset: 0, hasMore: false });
    // The dragon's first item (vendor id, Lightly Played) finds no variant; its variant id item is a duplicate.
    expect(page.data.map((c) => [c.id, c.variants.map((v) => [v.id, v.price, v['priceHistory']])])).toEqual([
      [goblin.id, [[goblinNm.id, 0.35, null]]],
      [dragon.id, []],
    ]);
    // The starter plan's cap, as the gateway reported the plan.
    const tooMany = Array.from({ length: PLANS.starter.maxBatch + 1 }, () => ({ cardId: goblin.id }));
    await expect(app.get(CardsService).batch(tooMany, {}, usage)).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
  });
});
