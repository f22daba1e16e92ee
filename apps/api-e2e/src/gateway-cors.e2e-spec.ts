import { newKey } from './keys';
import { startStack, Stack } from './stack';

const preflight = (url: string, origin: string, method = 'POST') =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'x-api-key, content-type',
    },
  });

const exposed = (res: Response) =>
  (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());

describe('CORS at the gateway (real HTTP to the real services)', () => {
  describe('with the default: any origin', () => {
    let stack: Stack;

    beforeAll(async () => {
      stack = await startStack();
    });
    afterAll(async () => {
      await stack.close();
    });

    it('lets a page read answers, errors included, and the headers it needs', async () => {
      const key = await newKey('starter');
      const origin = 'https://shop.example';
      const v2 = await fetch(`${stack.gatewayUrl}/v2/cards?q=dragon`, {
        headers: { origin, 'x-api-key': key },
      });
      expect(v2.status).toBe(200);
      expect(v2.headers.get('access-control-allow-origin')).toBe('*');
      expect(exposed(v2)).toEqual(
        expect.arrayContaining([
          'ratelimit',
          'ratelimit-policy',
          'link',
          'x-total-count',
          'x-request-id',
          'etag',
        ]),
      );
      expect(v2.headers.get('vary')).toBe('Accept-Encoding');

      const unauthorised = await fetch(`${stack.gatewayUrl}/v1/games`, { headers: { origin } });
      expect(unauthorised.status).toBe(401);
      expect(unauthorised.headers.get('access-control-allow-origin')).toBe('*');
      // The request guard's own refusals too.
      const tooLong = await fetch(`${stack.gatewayUrl}/v1/cards?q=${'x'.repeat(9_000)}`, {
        headers: { origin },
      });
      expect(tooLong.status).toBe(414);
      expect(tooLong.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('answers preflights for GET, POST and DELETE without a key, and they count for nothing', async () => {
      const res = await preflight(`${stack.gatewayUrl}/v1/cards`, 'https://app.example');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, DELETE');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(await res.text()).toBe('');

      // Preflights carry no key: they are not failed authentications either. 40 of them from one
      // address (past AUTH_FAILURES_PER_MINUTE, 30) leave its next keyless request a 401, not a 429.
      for (let i = 0; i < 40; i++)
        expect((await preflight(`${stack.gatewayUrl}/v1/games`, 'https://app.example', 'GET')).status).toBe(
          204,
        );
      expect((await fetch(`${stack.gatewayUrl}/v1/games`)).status).toBe(401);
    });

    it('gives the pages and their assets no CORS header, so no other origin reads them (the demo key)', async () => {
      const origin = 'https://evil.example';
      const explorer = await fetch(`${stack.gatewayUrl}/`, { headers: { origin } });
      expect(explorer.status).toBe(200);
      const asset = /(\/assets\/[^"']+)/.exec(await explorer.text())?.[1];
      expect(asset).toBeDefined();
      for (const path of ['/', '/docs', asset!]) {
        const page = await fetch(`${stack.gatewayUrl}${path}`, { headers: { origin } });
        expect([path, page.status]).toEqual([path, 200]);
        expect([path, page.headers.get('access-control-allow-origin')]).toEqual([path, null]);
        expect([path, page.headers.get('access-control-expose-headers')]).toEqual([path, null]);
        const pre = await preflight(`${stack.gatewayUrl}${path}`, origin, 'GET');
        expect([path, pre.headers.get('access-control-allow-origin')]).toEqual([path, null]);
      }
      // The API beside them keeps its CORS.
      const api = await fetch(`${stack.gatewayUrl}/v1/games`, { headers: { origin } });
      expect(api.status).toBe(401);
      expect(api.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('leaves a plain OPTIONS (no preflight) to the API', async () => {
      const res = await fetch(`${stack.gatewayUrl}/v1/games`, { method: 'OPTIONS' });
      expect(res.status).toBe(401);
    });
  });

  describe('with a list of origins', () => {
    let stack: Stack;
    let key: string;

    beforeAll(async () => {
      stack = await startStack({
        gatewayEnv: { CORS_ORIGINS: 'https://shop.example, http://localhost:3000' },
      });
      key = await newKey('enterprise');
    });
    afterAll(async () => {
      await stack.close();
    });

    it('names a listed origin back and varies on Origin besides the service’s own Vary', async () => {
      const res = await fetch(`${stack.gatewayUrl}/v1/games`, {
        headers: { origin: 'http://localhost:3000', 'x-api-key': key },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect(exposed(res)).toContain('x-request-id');
      expect(res.headers.get('vary')).toBe('Accept-Encoding, Origin');
      const pre = await preflight(`${stack.gatewayUrl}/v1/cards`, 'https://SHOP.example');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://SHOP.example');
    });

    it('gives another origin no CORS headers, so its browser withholds the answer', async () => {
      const res = await fetch(`${stack.gatewayUrl}/v1/games`, {
        headers: { origin: 'https://evil.example', 'x-api-key': key },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-expose-headers')).toBeNull();
      const pre = await preflight(`${stack.gatewayUrl}/v1/cards`, 'https://evil.example');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      expect(pre.headers.get('access-control-allow-methods')).toBeNull();
    });
  });
});
