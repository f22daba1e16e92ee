import { CardSet, uuidV5 } from '@tcg/domain';
import { PriceIngestRepository, refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { tinyCatalogue, truncateAll, withTestDatabase } from '@tcg/persistence/testing';
import { STARTER_AFTER_ONE_REQUEST } from './fixtures';
import { fetchWithKey, getJson } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

interface V1Body {
  data: unknown;
  meta?: unknown;
  _metadata: { apiPlan: string };
}

const DAY = 86_400;
const T_NOW = Date.UTC(2026, 10, 1, 12) / 1000;

describe('GET /v1/games and /v1/sets through the gateway', () => {
  let stack: Stack;
  let key: string;
  const cat = tinyCatalogue();
  const [nm, psa] = cat.variants;
  // A second, unpriced set of the same game, released later, to see ordering and filtering.
  const later: CardSet = {
    uuid: uuidV5('set:test-game-second-wave'),
    id: 'test-game-second-wave',
    gameId: 'test-game',
    name: 'Second Wave',
    code: 'SW',
    releaseDate: '2021-06-30',
  };

  beforeAll(async () => {
    await withTestDatabase(async (ds) => {
      await truncateAll(ds);
      await writeCatalogue(ds, { ...cat, sets: [...cat.sets, later] });
      const ingest = new PriceIngestRepository(ds);
      // NM: 7 days before the latest point the price was 9.00 (day -8 is the reference), now 12.00.
      await ingest.ingest(
        [-10, -8, -5, -1, 0].map((d, i) => ({
          variantUuid: nm!.uuid,
          region: 'NA',
          t: T_NOW + d * DAY,
          price: [800, 900, 1000, 1100, 1200][i]!,
        })),
      );
      // A graded slab worth far more: v1 is raw only, so it must not count.
      await ingest.ingest([{ variantUuid: psa!.uuid, region: 'NA', t: T_NOW, price: 50_000 }]);
      await refreshSummaries(ds);
    });
    stack = await startStack();
    key = await newKey('starter');
  });
  afterAll(async () => {
    await stack.close();
  });

  const get = (path: string) => fetchWithKey(`${stack.gatewayUrl}${path}`, key);

  it('lists games with counts, index and 7-day change from the raw variants, and the caller usage', async () => {
    const body = await getJson<V1Body>(`${stack.gatewayUrl}/v1/games`, key);
    expect(body.data).toEqual([
      {
        id: 'test-game',
        name: 'Test Game',
        cards_count: 1,
        variants_count: 1,
        sealed_count: 0,
        sets_count: 2,
        last_updated: T_NOW,
        game_value_index_cents: 1200,
        game_value_change_7d_pct: 33.33,
        // The operator's own prices (the test writes them as an import does): nothing simulated.
        price_sources: ['imported'],
      },
    ]);
    expect(body._metadata).toEqual(STARTER_AFTER_ONE_REQUEST);
  });

  it('lists a game’s sets by display name, name descending by default, with values', async () => {
    const body = await getJson<V1Body>(`${stack.gatewayUrl}/v1/sets?game=test%20GAME`, key);
    expect(body.data).toEqual([
      {
        id: 'test-game-second-wave',
        name: 'Second Wave',
        game_id: 'test-game',
        game: 'Test Game',
        release_date: '2021-06-30',
        cards_count: 0,
        set_value_usd: 0,
      },
      {
        id: 'test-game-first-edition',
        name: 'First Edition',
        game_id: 'test-game',
        game: 'Test Game',
        release_date: '2020-01-31',
        cards_count: 1,
        set_value_usd: 12,
      },
    ]);
    expect(body.meta).toEqual({ total: 2, limit: 2, offset: 0, hasMore: false });
    expect(body._metadata.apiPlan).toBe('starter');
  });

  it('orders by release date either way, filters by name, and ignores unknown parameters', async () => {
    const ids = async (path: string) =>
      ((await (await get(path)).json()) as { data: { id: string }[] }).data.map((s) => s.id);
    expect(await ids('/v1/sets?game=test-game&orderBy=release_date&order=asc&foo=bar')).toEqual([
      'test-game-first-edition',
      'test-game-second-wave',
    ]);
    expect(await ids('/v1/sets?game=test-game&orderBy=release_date')).toEqual([
      'test-game-second-wave',
      'test-game-first-edition',
    ]);
    expect(await ids('/v1/sets?game=test-game&q=WAVE')).toEqual(['test-game-second-wave']);
    expect(await ids('/v1/sets?game=test-game&q=%25')).toEqual([]); // a literal %, not a wildcard
  });

  it.each([
    ['/v1/sets', "'game' is required"],
    ['/v1/sets?game=test-game&orderBy=price', "Invalid value for 'orderBy'. Accepted: name, release_date."],
    ['/v1/sets?game=test-game&order=up', "Invalid value for 'order'. Accepted: asc, desc."],
    ['/v1/sets?game=chess', "Invalid value 'chess' for 'game'. Accepted: test-game, Test Game."],
  ])('%s is a 400 naming the parameter', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringContaining(message), code: 'INVALID_REQUEST' });
  });
});
