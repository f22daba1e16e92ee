import { TcgClient, TcgError } from './index.js';
import { json, startServer, type TestServer } from './testing/http-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CARDS = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, name: `Card ${id}`, variants: [] }));

/** A v1 cards route over CARDS that pages as the API does: `limit` (default 2 here) and `offset`. */
async function v1Server(): Promise<TestServer> {
  server = await startServer((_, seen) => {
    const url = new URL(seen.url, 'http://x');
    if (url.pathname !== '/v1/cards') return json(404, { error: 'no', code: 'NOT_FOUND' });
    const limit = Number(url.searchParams.get('limit') ?? 2);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const data = CARDS.slice(offset, offset + limit);
    return json(200, {
      data,
      meta: { total: CARDS.length, limit, offset, hasMore: offset + data.length < CARDS.length },
      _metadata: {},
    });
  });
  return server;
}

/** A v2 cards route over CARDS with cursors `c<offset>`. */
async function v2Server(options: { stuck?: boolean } = {}): Promise<TestServer> {
  server = await startServer((_, seen) => {
    const url = new URL(seen.url, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 2);
    const offset = Number(url.searchParams.get('cursor')?.slice(1) ?? 0);
    const data = CARDS.slice(offset, offset + limit);
    const more = offset + data.length < CARDS.length;
    const next = options.stuck ? (url.searchParams.get('cursor') ?? 'c0') : `c${offset + data.length}`;
    return json(200, {
      data,
      meta: {
        count: data.length,
        total: null,
        limit,
        has_more: more,
        cursor: { next: more ? next : null, prev: offset ? 'p' : null },
      },
    });
  });
  return server;
}

const clientOf = (srv: TestServer, baseUrl = srv.url) => new TcgClient({ baseUrl, apiKey: 'k-1' });

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('v1 offset paging', () => {
  it('iterate yields every card across pages, keeping the other parameters', async () => {
    const srv = await v1Server();
    const cards = await collect(
      clientOf(srv).v1.cards.iterate({ set: 's-1', limit: 2, language: ['English', 'Japanese'] }),
    );
    expect(cards.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(srv.seen.map((s) => s.url)).toEqual([
      '/v1/cards?set=s-1&limit=2&language=English%2CJapanese&offset=0',
      '/v1/cards?set=s-1&limit=2&language=English%2CJapanese&offset=2',
      '/v1/cards?set=s-1&limit=2&language=English%2CJapanese&offset=4',
    ]);
  });

  it('starts at the given offset, and stops early when the caller breaks', async () => {
    const srv = await v1Server();
    const seen: string[] = [];
    for await (const card of clientOf(srv).v1.cards.iterate({ offset: 1, limit: 2 })) {
      seen.push(card.id);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['b', 'c', 'd']);
    expect(srv.seen).toHaveLength(2);
  });

  it('pages yields each answer whole', async () => {
    const srv = await v1Server();
    const pages = await collect(clientOf(srv).v1.cards.pages({ limit: 3 }));
    expect(pages.map((p) => [p.meta.offset, p.data.length, p.meta.hasMore])).toEqual([
      [0, 3, true],
      [3, 2, false],
    ]);
  });
});

describe('v2 cursor paging', () => {
  it('iterate follows meta.cursor.next with the same parameters until has_more is false', async () => {
    const srv = await v2Server();
    const cards = await collect(
      clientOf(srv).v2.cards.iterate({ game: 'g', regions: ['NA', 'EU'], limit: 2 }),
    );
    expect(cards.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(srv.seen.map((s) => s.url)).toEqual([
      '/v2/cards?game=g&regions=NA%2CEU&limit=2',
      '/v2/cards?game=g&regions=NA%2CEU&limit=2&cursor=c2',
      '/v2/cards?game=g&regions=NA%2CEU&limit=2&cursor=c4',
    ]);
  });

  it('refuses to walk a cursor that does not move', async () => {
    const srv = await v2Server({ stuck: true });
    const walk = collect(clientOf(srv).v2.cards.iterate({ limit: 2, cursor: 'c0' }));
    await expect(walk).rejects.toThrow(TcgError);
    expect(srv.seen).toHaveLength(1);
  });
});

describe('requests', () => {
  it('sends the key, the route, the query and the body each method names', async () => {
    server = await startServer((n) => (n === 5 ? { status: 204 } : json(n === 2 ? 201 : 200, { data: [] })));
    const client = new TcgClient({ baseUrl: `${server.url}/api/`, apiKey: 'k-1' });
    await client.v2.cards.get('a b/c', { regions: ['NA'], include: [] });
    await client.v1.cards.batch([{ cardId: 'x' }, { vendorSkuId: '7' }], { include_price_history: false });
    await client.v1.alerts.create({
      card_id: 'x',
      rule: 'price_below',
      value: 2.5,
      url: 'https://example.com/h',
    });
    await client.v1.alerts.list();
    await client.v1.alerts.get('id/1');
    await expect(client.v1.alerts.delete('id-1')).resolves.toBeUndefined();
    await client.v2.cards.ids('card-1');
    await client.v2.ids.lookup('tcgplayer_sku', '123');
    expect(server.seen.map((s) => [s.method, s.url, s.body])).toEqual([
      // An empty list is sent empty: `include=` asks for prices only.
      ['GET', '/api/v2/cards/a%20b%2Fc?regions=NA&include=', ''],
      ['POST', '/api/v1/cards?include_price_history=false', '[{"cardId":"x"},{"vendorSkuId":"7"}]'],
      [
        'POST',
        '/api/v1/alerts',
        '{"card_id":"x","rule":"price_below","value":2.5,"url":"https://example.com/h"}',
      ],
      ['GET', '/api/v1/alerts', ''],
      ['GET', '/api/v1/alerts/id%2F1', ''],
      ['DELETE', '/api/v1/alerts/id-1', ''],
      ['GET', '/api/v2/cards/card-1/ids', ''],
      ['GET', '/api/v2/ids/tcgplayer_sku/123', ''],
    ]);
    for (const s of server.seen) expect(s.headers['x-api-key']).toBe('k-1');
    expect(server.seen[1]!.headers['content-type']).toBe('application/json');
  });

  it('refuses a client without a base URL or a key', () => {
    expect(() => new TcgClient({ baseUrl: 'localhost:8080', apiKey: 'k' })).toThrow(/baseUrl/);
    expect(() => new TcgClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: '' })).toThrow(/apiKey/);
    expect(() => new TcgClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'k', timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });
});
