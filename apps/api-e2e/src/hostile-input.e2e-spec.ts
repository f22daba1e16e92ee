import { V1_BATCH_FIELDS, V1_CARDS_PARAMETERS } from '@tcg/http-service/testing';
import { request as httpRequest } from 'node:http';
import { dragon, goblin, goblinNm, lp, nm, seedCatalogue } from './fixtures';
import { newKey } from './keys';
import { INTERNAL_TOKEN, startStack, Stack } from './stack';

/**
 * Whatever a client sends, a service answers in its version's error shape with a 4xx (or a
 * 200), never a 500, never a stack trace (developers' guide: nothing a client sends can crash
 * a service or leak one).
 */
const GETS = [
  '/v1/cards?q=%00',
  '/v1/cards?cardId=%00',
  '/v1/cards?set=a%00b',
  '/v1/cards?number=%00&game=%00',
  '/v1/sets?game=%00',
  '/v1/cards?q=%ff%fe%fd',
  '/v1/cards?q=%25%25_%5C',
  `/v1/cards?q=${'x'.repeat(4000)}`,
  '/v1/cards?limit=99999999999999999999999',
  '/v1/cards?offset=-1',
  '/v1/cards?updated_after=1e400',
  '/v1/cards?min_price=1e308',
  '/v1/cards?limit=1&limit=2',
  '/v1/cards?q[a]=b&cardId[]=x',
  '/v1/cards?%00=1',
  '/v1/%00',
  '/v2/cards?q=%00',
  '/v2/cards?card_id=%00',
  '/v2/cards?vendor_sku=%00',
  '/v2/cards/%00',
  '/v2/cards/a%00b?regions=NA',
  '/v2/cards?cursor=%00',
  `/v2/cards?cursor=${'A'.repeat(3000)}.${'B'.repeat(43)}`,
  '/v2/cards?cursor=e30.x',
  '/v2/cards?regions=%00,NA',
  `/v2/cards?regions=${Array.from({ length: 50 }, () => 'NA').join(',')}`,
  '/v2/cards?grade=%00&grading_company=PSA',
  '/v2/cards?include=periods.%00',
  '/v2/cards?min_price=NaN',
  '/v2/cards?limit=-5',
  '/v2/cards?q[a]=b',
  '/v2/cards?%00=1',
  `/v2/cards?q=${encodeURIComponent('😀'.repeat(500))}`,
];

/** Every query parameter of each route (docs/spec/interface.md), and what a hostile client puts in them. */
const PARAMETERS = {
  '/v1/cards': V1_CARDS_PARAMETERS,
  '/v1/sets': ['game', 'q', 'orderBy', 'order'],
  '/v2/cards': [
    'card_id',
    'variant_id',
    'vendor_id',
    'vendor_sku',
    'regions',
    'graded',
    'grading_company',
    'grade',
    'include',
    'cursor',
    'limit',
    'q',
    'game',
    'set',
    'number',
    'language',
    'min_price',
    'order_by',
  ],
  [`/v2/cards/${dragon.uuid}`]: ['regions', 'graded', 'grading_company', 'grade', 'include', 'language'],
} as const;
/** Query-string text (already encoded): `+` is a space, so these stay under the gateway's header limit. */
const HOSTILE_VALUES: Record<string, string> = {
  'spaces and dashes': `a${'+'.repeat(1500)}-${'+'.repeat(1500)}-`,
  'a short run of spaces and dashes': `a${'+'.repeat(60)}-${'+'.repeat(60)}-`,
  dashes: '-'.repeat(3000),
  '2,000 characters': 'x'.repeat(2000),
  'invalid UTF-8': '%ff%fe%c3%28%e2%82',
  'a lone percent sign': '%',
  'control characters': '%01%1f%7f%0d%0a',
  'a lone surrogate': '%ed%a0%80',
  commas: ','.repeat(600),
};

describe('hostile input never makes a service fail', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    await seedCatalogue([dragon, goblin], [nm, lp, goblinNm]);
    stack = await startStack();
    key = await newKey('enterprise');
  });
  afterAll(async () => {
    await stack.close();
  });

  const expectClean = async (res: Response, path: string) => {
    const text = await res.text();
    expect({ path, status: res.status < 500 }).toEqual({ path, status: true });
    expect(text).not.toMatch(/\n\s+at |node_modules|Error:/);
    if (res.status >= 400) {
      const body = JSON.parse(text) as Record<string, unknown>;
      if (path.startsWith('/v2')) {
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(body).toMatchObject({
          status: res.status,
          code: expect.any(String),
          detail: expect.any(String),
        });
      } else {
        expect(Object.keys(body).sort()).toEqual(['code', 'error']);
      }
    }
  };

  const get = (path: string, apiKey: string) => rawGet(`${stack.gatewayUrl}${path}`, apiKey);
  const post = (path: string, body: string, apiKey: string) =>
    fetch(`${stack.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body,
    });

  it.each(GETS)('GET %s', async (path) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, { headers: { 'x-api-key': key } });
    await expectClean(res, path);
  });

  it('names the parameter holding a NUL character', async () => {
    const v1 = await fetch(`${stack.gatewayUrl}/v1/cards?q=a%00`, { headers: { 'x-api-key': key } });
    expect(v1.status).toBe(400);
    expect(await v1.json()).toEqual({ error: expect.stringContaining("'q'"), code: 'INVALID_REQUEST' });
    const v2 = await fetch(`${stack.gatewayUrl}/v2/cards/x%00`, { headers: { 'x-api-key': key } });
    expect(v2.status).toBe(400);
  });

  it.each([
    ['a NUL in an identifier', JSON.stringify([{ cardId: 'a\u0000b' }])],
    ['a NUL in a filter', JSON.stringify([{ cardId: dragon.id, printing: '\u0000' }])],
    ['a NUL in a key', JSON.stringify([{ cardId: dragon.id, 'x\u0000': 1 }])],
    ['an object identifier', JSON.stringify([{ cardId: { $ne: null } }])],
    ['a huge number', JSON.stringify([{ vendorId: 1e308 }])],
    ['deep nesting', `[${'['.repeat(2000)}${']'.repeat(2000)}]`],
    ['null', 'null'],
    ['a string', '"cards"'],
    ['broken JSON', '[{"cardId": '],
    ['a bare NUL', '\u0000'],
  ])('POST /v1/cards with %s', async (_name, body) => {
    const res = await fetch(`${stack.gatewayUrl}/v1/cards`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body,
    });
    await expectClean(res, '/v1/cards');
  });

  describe.each(Object.entries(PARAMETERS))('every parameter of %s', (route, names) => {
    let routeKey: string;
    beforeAll(async () => {
      routeKey = await newKey('enterprise'); // each route its own minute of quota
    });

    it.each(Object.entries(HOSTILE_VALUES))('holding %s', async (_kind, value) => {
      await inBatches(names, async (name) => {
        const path = `${route}?${name}=${value}`;
        await expectClean(await get(path, routeKey), path);
      });
    });

    it.each(names.map((n) => [n]))('%s repeated 40 times, or given 100 KB', async (name) => {
      const repeated = `${route}?${Array<string>(40).fill(`${name}=NA`).join('&')}`;
      const repeatedRes = await get(repeated, routeKey);
      await expectClean(repeatedRes, repeated);
      expect(repeatedRes.status).toBe(400);
      // Past Node's 16 KB header limit: refused before anything parses it. Node answers a bare 431
      // and closes the connection, which a client still sending sees as a reset.
      const huge = await get(`${route}?${name}=${'x'.repeat(100_000)}`, routeKey).then(
        (res) => res.status,
        (error: NodeJS.ErrnoException) => error.code,
      );
      expect([431, 414, 400, 'ECONNRESET', 'EPIPE']).toContain(huge);
      expect((await get(`${route}?${name}=`, routeKey)).status).toBeLessThan(500);
    });
  });

  it('reads a parameter that comes after a thousand others, as the gateway did when it priced it', async () => {
    // Express's default parser stops at 1,000 pairs; the gateway's cost reads them all.
    const filler = Array<string>(1000).fill('z=1').join('&');
    const res = await get(`/v1/cards?${filler}&game=no-such-game`, key);
    const body = (await res.clone().json()) as { error: string };
    await expectClean(res, '/v1/cards?z=1…&game=no-such-game');
    expect(res.status).toBe(400);
    expect(body.error).toContain("'game'");
  });

  it.each([
    ['/v1/cards?q=', 'x'.repeat(201), 'q', /at most 200 characters/],
    ['/v1/cards?offset=', '10001', 'offset', /from 0 to 10000\b/],
    ['/v1/cards?cardId=', 'c'.repeat(257), 'cardId', /at most 256 characters/],
    ['/v1/cards?condition=', Array<string>(33).fill('NM').join(','), 'condition', /at most 32/],
    ['/v1/cards?game=', `g&${Array<string>(17).fill('game=g').join('&')}`, 'game', /at most 16 times/],
    ['/v1/sets?game=', 'g'.repeat(257), 'game', /at most 256 characters/],
    ['/v2/cards?q=', 'x'.repeat(201), 'q', /at most 200 characters/],
    ['/v2/cards?cursor=', `${'A'.repeat(3000)}.${'B'.repeat(43)}`, 'cursor', /at most 1024 characters/],
    ['/v2/cards?regions=', Array<string>(33).fill('NA').join(','), 'regions', /at most 32/],
  ])('%s past its cap is a 400 naming the parameter and the cap', async (prefix, value, name, cap) => {
    const path = `${prefix}${value}`;
    const res = await get(path, key);
    const body = (await res.clone().json()) as { error?: string; detail?: string };
    await expectClean(res, path);
    expect(res.status).toBe(400);
    expect(body.error ?? body.detail).toContain(`'${name}'`);
    expect(body.error ?? body.detail).toMatch(cap);
  });

  it('a query string past 4,096 characters is a 400 before it is parsed', async () => {
    const path = `/v1/cards?${Array.from({ length: 300 }, (_, i) => `p${i}=xxxxxxxxxx`).join('&')}`;
    const res = await get(path, key);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: expect.stringMatching(/query string is \d+ characters long; at most 4096/),
      code: 'INVALID_REQUEST',
    });
  });

  it('still answers cheap requests while printing-suffix attacks are in flight', async () => {
    // The printing of the 9-second freeze (past the caps now), and the most of such text the caps
    // let through in a batch: 200 items, each 8 printings of 30 spaces, a dash, 30 spaces, a dash.
    const freeze = `/v1/cards?game=${dragon.gameId}&printing=a${'+'.repeat(3000)}-${'+'.repeat(3000)}-`;
    const run = Array<string>(8)
      .fill(`a${' '.repeat(30)}-${' '.repeat(30)}-`)
      .join(',');
    const batch = JSON.stringify(Array.from({ length: 200 }, () => ({ cardId: dragon.id, printing: run })));
    const attacks = [
      ...Array.from({ length: 4 }, () => get(freeze, key)),
      ...Array.from({ length: 4 }, () => post('/v1/cards', batch, key)),
    ];
    const cheap = await get(
      `/v1/cards?cardId=${dragon.id}&printing=Normal%20-%20English&include_null_prices=true`,
      key,
    );
    expect(cheap.status).toBe(200);
    expect(((await cheap.json()) as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([dragon.id]);
    const answered = await Promise.all(attacks);
    for (const res of answered) await expectClean(res, '/v1/cards');
    expect(answered.map((r) => r.status)).toEqual([400, 400, 400, 400, 200, 200, 200, 200]);
  });

  it.each(V1_BATCH_FIELDS)('POST /v1/cards with a hostile %s', async (field) => {
    const base =
      field === 'printing' || field === 'condition' || field === 'updated_after' ? { cardId: dragon.id } : {};
    for (const value of [
      'x'.repeat(100_000),
      `a${' '.repeat(3000)}-${' '.repeat(3000)}-`,
      '-'.repeat(5000),
      ','.repeat(5000),
      '\ud800\udfff\ud800',
      ['NM'],
      { $gt: '' },
      -1,
      1e308,
      true,
    ]) {
      const res = await post('/v1/cards', JSON.stringify([{ ...base, [field]: value }]), key);
      await expectClean(res, '/v1/cards');
    }
  });

  it('POST /v1/cards with a 2 MB body is a 413 in the v1 shape', async () => {
    const body = JSON.stringify(Array.from({ length: 200 }, () => ({ cardId: 'x'.repeat(10_000) })));
    const res = await post('/v1/cards', body, key);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE' });
  });

  it('POST /v1/cards with 200 items of capped fields is read, not refused for its size', async () => {
    const item = {
      cardId: dragon.id.padEnd(256, ' '),
      printing: Array<string>(32).fill('Foil - Japanese').join(','),
      condition: Array<string>(32).fill('Near Mint').join(',').slice(0, 512),
      updated_after: 0,
    };
    const res = await post('/v1/cards', JSON.stringify(Array(200).fill(item)), key);
    await expectClean(res, '/v1/cards');
    expect(res.status).toBe(200);
  });

  it.each([[{ 'content-type': 'application/json; charset=latin1' }, 415]])(
    'POST /v1/cards with %j is a %d in the v1 shape',
    async (headers, status) => {
      const res = await fetch(`${stack.gatewayUrl}/v1/cards`, {
        method: 'POST',
        headers: { 'x-api-key': key, ...headers },
        body: JSON.stringify([{ cardId: dragon.id }]),
      });
      expect(res.status).toBe(status);
      expect(Object.keys((await res.json()) as object).sort()).toEqual(['code', 'error']);
    },
  );

  it.each([
    '/V1/cards',
    '/v1/Cards',
    '/v1/cards/',
    '/V1/sets?game=test-game',
    '/v1/games/',
    '/V2/cards',
    '/v2/cards/',
    '/v2/Cards',
    `/v2/CARDS/${dragon.uuid}`,
    `/v2/cards/${dragon.uuid}/`,
  ])('%s is not an alias of a route: a 404', async (path) => {
    const res = await get(path, key);
    expect(res.status).toBe(404);
    expectEitherShape(res.headers.get('content-type'), await res.text());
  });

  it.each([
    '//v1/cards',
    '/v1/../v2/cards',
    '/v1/%2e%2e/v2/cards',
    '/v1/cards/..',
    '/v2/cards/%2e%2e',
    '/v2/cards/%ff',
    `/v2/cards/${'x'.repeat(600)}`,
  ])('%s is answered below 500, in an error shape', async (path) => {
    const res = await get(path, key);
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400) expectEitherShape(res.headers.get('content-type'), await res.text());
  });

  it.each([
    ['api-v1', '/V1/cards', 'v1'],
    ['api-v1', '/v1/cards/', 'v1'],
    ['api-v2', '/V2/cards', 'v2'],
    ['api-v2', '/v2/cards/', 'v2'],
    ['api-v2', '/v2/Cards/x', 'v2'],
  ])('%s itself serves %s as no route (strict, case-sensitive routing)', async (_service, path, version) => {
    const base = version === 'v1' ? stack.v1Url : stack.v2Url;
    const res = await fetch(`${base}${path}`, { headers: { 'x-tcg-internal-credential': INTERNAL_TOKEN } });
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body['code']).toBe('NOT_FOUND');
  });

  it('POST /v1/cards with another content type', async () => {
    const res = await fetch(`${stack.gatewayUrl}/v1/cards`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'text/plain' },
      body: '[{"cardId":"x"}]',
    });
    await expectClean(res, '/v1/cards');
    expect(res.status).toBe(400);
  });
});

/**
 * A path that is not quite a version's (`/V2/cards`, `//v1`) may be refused by the gateway in its
 * own shape or by a service in its version's: either way a known shape without a stack trace.
 */
function expectEitherShape(contentType: string | null, text: string): void {
  expect(text).not.toMatch(/\n\s+at |node_modules|Error:/);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (contentType?.startsWith('application/problem+json'))
    expect(body).toMatchObject({
      status: expect.any(Number),
      code: expect.any(String),
      detail: expect.any(String),
    });
  else expect(Object.keys(body).sort()).toEqual(['code', 'error']);
}

/**
 * A GET with the request target sent as written: fetch would normalise `..`, `//` and case-less
 * parts of it, and these tests are about what a hostile client sends, byte for byte.
 */
function rawGet(url: string, apiKey: string): Promise<Response> {
  const { hostname, port } = new URL(url);
  const target = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path: target, method: 'GET', headers: { 'x-api-key': apiKey }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Runs `each` over the items a few at a time: enough to be quick, few enough for a shared machine. */
async function inBatches<T>(items: readonly T[], each: (item: T) => Promise<void>, size = 6): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(each));
}
