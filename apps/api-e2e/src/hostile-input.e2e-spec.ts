import { dragon, goblin, goblinNm, lp, nm, seedCatalogue } from './fixtures';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

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
