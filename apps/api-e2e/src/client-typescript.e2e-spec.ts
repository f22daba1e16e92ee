import {
  TcgBadRequestError,
  TcgClient,
  TcgNotFoundError,
  TcgRateLimitError,
  type TcgClientOptions,
} from '@tcg-pricing/client';
import { dragon, goblin, knight, seedRawCatalogue, SET } from './fixtures';
import { getJson } from './http';
import { newKey } from './keys';
import { startStack, type Stack } from './stack';

/** The TypeScript client (clients/typescript) against the built stack, over real HTTP. */
describe('the TypeScript client through the gateway', () => {
  let stack: Stack;
  let key: string;
  /** The URLs the client asked for, in order (its `fetch`, recorded). */
  const asked: string[] = [];

  const clientWith = (apiKey: string, options: Partial<TcgClientOptions> = {}) =>
    new TcgClient({
      baseUrl: stack.gatewayUrl,
      apiKey,
      fetch: (input, init) => {
        asked.push(`${init?.method ?? 'GET'} ${String(input).slice(stack.gatewayUrl.length)}`);
        return fetch(input, init);
      },
      ...options,
    });

  async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
    const out: T[] = [];
    for await (const item of items) out.push(item);
    return out;
  }

  beforeAll(async () => {
    await seedRawCatalogue();
    // Alerts may point at 127.0.0.1 here: nothing is sent (no sender runs), and tests reach no other host.
    stack = await startStack({ v1Env: { ALERT_PRIVATE_URLS: 'allow' } });
    key = await newKey('enterprise');
  });

  beforeEach(() => {
    asked.length = 0;
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('lists games and sets as the API answers them', async () => {
    const client = clientWith(key);
    const games = await client.v1.games.list();
    const raw = await getJson<typeof games>(`${stack.gatewayUrl}/v1/games`, key);
    expect(games.data).toEqual(raw.data);
    expect(games._metadata.apiRequestsUsed).toBe(raw._metadata.apiRequestsUsed - 1);
    expect(games.data.map((g) => g.id)).toEqual(['test-game']);
    const sets = await client.v1.sets.list({ game: 'test-game' });
    expect(sets.data.map((s) => s.id)).toEqual([SET.id]);
    expect(sets.meta).toMatchObject({ total: 1, hasMore: false });
    expect((await collect(client.v1.sets.iterate({ game: 'Test Game' }))).map((s) => s.name)).toEqual([
      SET.name,
    ]);
    expect((await collect(client.v1.games.iterate())).map((g) => g.name)).toEqual(['Test Game']);
  });

  it("walks v1's offset pages over the seeded set and gets exactly the cards one request gives", async () => {
    const raw = await getJson<{ data: { id: string }[] }>(
      `${stack.gatewayUrl}/v1/cards?set=${SET.id}&limit=100`,
      key,
    );
    expect(raw.data).toHaveLength(3);
    const cards = await collect(clientWith(key).v1.cards.iterate({ set: SET.id, limit: 1 }));
    expect(cards).toEqual(raw.data);
    expect(asked).toEqual([0, 1, 2].map((offset) => `GET /v1/cards?set=${SET.id}&limit=1&offset=${offset}`));
  });

  it("follows v2's cursors over the seeded set and gets exactly the cards one request gives", async () => {
    const query = `set=${SET.id}&regions=NA,EU&include=periods.30d`;
    const raw = await getJson<{ data: { id: string }[] }>(
      `${stack.gatewayUrl}/v2/cards?${query}&limit=100`,
      key,
    );
    expect(raw.data.map((c) => c.id).sort()).toEqual([dragon.uuid, knight.uuid, goblin.uuid].sort());
    const cards = await collect(
      clientWith(key).v2.cards.iterate({
        set: SET.id,
        regions: ['NA', 'EU'],
        include: ['periods.30d'],
        limit: 1,
      }),
    );
    expect(cards).toEqual(raw.data);
    expect(cards[0]!.variants[0]!.markets.map((m) => m.region)).toEqual(['NA', 'EU']);
    // Three pages: the first without a cursor, each next one with the cursor the last gave.
    expect(asked).toHaveLength(3);
    expect(asked[0]).not.toContain('cursor=');
    expect(asked.slice(1).every((url) => /&cursor=[^&]+$/.test(url))).toBe(true);

    const one = await clientWith(key).v2.cards.get(dragon.id, { regions: ['NA'] });
    expect(one).toEqual(await getJson(`${stack.gatewayUrl}/v2/cards/${dragon.uuid}?regions=NA`, key));
  });

  it('reads the id crosswalk as one request gives it', async () => {
    const client = clientWith(key);
    const ids = await client.v2.cards.ids(dragon.uuid);
    expect(ids).toEqual(await getJson(`${stack.gatewayUrl}/v2/cards/${dragon.uuid}/ids`, key));
    const holders = await client.v2.ids.lookup('tcgplayer_product', '1007');
    expect(holders).toEqual(await getJson(`${stack.gatewayUrl}/v2/ids/tcgplayer_product/1007`, key));
  });

  it('looks cards up in one batch', async () => {
    const batch = await clientWith(key).v1.cards.batch([{ cardId: knight.uuid }, { vendorSkuId: 'SKU-LP' }], {
      include_price_history: false,
    });
    expect(batch.data.map((c) => c.id)).toEqual([knight.id, dragon.id]);
    // The SKU lookup narrows the dragon to that variant.
    expect(batch.data[1]!.variants.map((v) => v.vendorSkuId)).toEqual(['SKU-LP']);
    expect(batch.data[0]!.variants[0]!.priceHistory).toBeNull();
  });

  it('creates, lists, reads and deletes an alert', async () => {
    const client = clientWith(await newKey('starter'));
    const created = await client.v1.alerts.create({
      card_id: dragon.id,
      rule: 'price_above',
      value: 450,
      url: 'http://127.0.0.1:9/hook',
    });
    expect(created.data).toMatchObject({
      card_id: dragon.id,
      rule: 'price_above',
      value: 450,
      status: 'active',
    });
    expect(created.data.secret).toMatch(/^whsec_/);
    const { id } = created.data;
    expect((await client.v1.alerts.list()).data.map((a) => a.id)).toEqual([id]);
    expect((await client.v1.alerts.get(id)).data).toMatchObject({ id, card_name: 'Test Dragon' });
    await expect(client.v1.alerts.delete(id)).resolves.toBeUndefined();
    expect((await client.v1.alerts.list()).data).toEqual([]);
    const gone = client.v1.alerts.get(id);
    await expect(gone).rejects.toBeInstanceOf(TcgNotFoundError);
    await expect(gone).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND', body: { code: 'NOT_FOUND' } });
  });

  it('surfaces a 404 and 400s as typed errors, in each version’s shape', async () => {
    const client = clientWith(key);
    const missing = client.v2.cards.get('no-such-card');
    await expect(missing).rejects.toBeInstanceOf(TcgNotFoundError);
    await expect(missing).rejects.toMatchObject({
      status: 404,
      kind: 'not_found',
      code: 'NOT_FOUND',
      body: { status: 404, code: 'NOT_FOUND', type: expect.stringMatching(/#not-found$/) },
      requestId: expect.any(String),
    });

    const badRegion = client.v2.cards.list({ regions: ['MOON'] });
    await expect(badRegion).rejects.toBeInstanceOf(TcgBadRequestError);
    await expect(badRegion).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
      kind: 'bad_request',
    });
    await expect(badRegion).rejects.toThrow("'regions'");

    const shortQuery = client.v1.cards.list({ q: 'ab' });
    await expect(shortQuery).rejects.toBeInstanceOf(TcgBadRequestError);
    await expect(shortQuery).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
      body: { code: 'INVALID_REQUEST' },
    });
    await expect(shortQuery).rejects.toThrow("'q'");
    // Each sent once: a 4xx is never retried.
    expect(asked).toHaveLength(3);
  });

  it("surfaces a free key's 429 with retryAfter, and gives it back without waiting past its budget", async () => {
    const free = await newKey('free');
    const client = clientWith(free, { retries: 0 });
    // 10 a minute on the free plan; a few more in case the clock minute turns meanwhile.
    let served = 0;
    let refused: unknown;
    while (!refused && served < 30)
      await client.v1.games.list().then(
        () => served++,
        (e: unknown) => (refused = e),
      );
    expect(served).toBeGreaterThanOrEqual(10);
    expect(refused).toBeInstanceOf(TcgRateLimitError);
    expect(refused).toMatchObject({ status: 429, kind: 'rate_limited', code: 'RATE_LIMIT_EXCEEDED' });
    const { retryAfter } = refused as TcgRateLimitError;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // With retries, a Retry-After past the wait budget comes back at once rather than after it
    // (unless the minute is about to turn, when the next request would simply be served).
    if (retryAfter! >= 3) {
      const patient = clientWith(free, { retries: 3, maxRetryWaitMs: 0 });
      const started = Date.now();
      await expect(patient.v2.cards.list({ set: SET.id })).rejects.toBeInstanceOf(TcgRateLimitError);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });
});
