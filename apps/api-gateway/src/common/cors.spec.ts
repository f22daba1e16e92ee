import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyCors, CorsOrigins, joinVary, parseCorsOrigins } from './cors';

describe('parseCorsOrigins', () => {
  it('reads any origin, or a list of exact origins in lower case', () => {
    expect(parseCorsOrigins(' * ')).toBe('*');
    expect(parseCorsOrigins('https://Shop.example, http://localhost:3000, http://[::1]:8080')).toEqual(
      new Set(['https://shop.example', 'http://localhost:3000', 'http://[::1]:8080']),
    );
  });

  it.each([
    'https://shop.example/',
    'shop.example',
    'https://shop.example/path',
    'ftp://x.example',
    '*,https://a.example',
    'https://shop.example:443',
    'http://a.example:99999',
  ])('refuses %s, naming it', (value) => {
    expect(() => parseCorsOrigins(value)).toThrow(/is not an origin as browsers send it/);
  });
});

describe('joinVary', () => {
  it('joins the service’s Vary with CORS’s, either one alone, or none', () => {
    expect(joinVary('Accept-Encoding', 'Origin')).toBe('Accept-Encoding, Origin');
    expect(joinVary('Accept-Encoding', undefined)).toBe('Accept-Encoding');
    expect(joinVary(undefined, 'Origin')).toBe('Origin');
    expect(joinVary(undefined, undefined)).toBeUndefined();
  });
});

describe('applyCors', () => {
  const exchange = (method: string, headers: Record<string, string>, origins: CorsOrigins) => {
    const set: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (set[name.toLowerCase()] = value) };
    const kind = applyCors(
      { method, headers } as unknown as IncomingMessage,
      res as unknown as ServerResponse,
      origins,
    );
    return { kind, set };
  };
  const list = new Set(['https://shop.example']);

  it.each([
    [
      'any origin, a request without Origin',
      'GET',
      {},
      '*',
      'request',
      ['access-control-allow-origin', 'access-control-expose-headers'],
    ],
    ['a list, a request without Origin', 'GET', {}, list, 'request', ['vary']],
    [
      'a list, a listed origin',
      'GET',
      { origin: 'https://SHOP.example' },
      list,
      'request',
      ['vary', 'access-control-allow-origin', 'access-control-expose-headers'],
    ],
    ['a list, another origin', 'POST', { origin: 'https://evil.example' }, list, 'request', ['vary']],
    ['a list, a null origin', 'GET', { origin: 'null' }, list, 'request', ['vary']],
    [
      'OPTIONS without Access-Control-Request-Method',
      'OPTIONS',
      { origin: 'https://shop.example' },
      list,
      'request',
      ['vary', 'access-control-allow-origin', 'access-control-expose-headers'],
    ],
    [
      'a preflight, a listed origin',
      'OPTIONS',
      { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
      list,
      'preflight',
      [
        'vary',
        'access-control-allow-origin',
        'access-control-allow-methods',
        'access-control-allow-headers',
        'access-control-max-age',
      ],
    ],
    [
      'a preflight, another origin',
      'OPTIONS',
      { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      list,
      'preflight',
      ['vary'],
    ],
  ] as const)('%s', (_case, method, headers, origins, kind, names) => {
    const got = exchange(method, headers, origins as CorsOrigins);
    expect(got.kind).toBe(kind);
    expect(Object.keys(got.set)).toEqual(names);
  });

  it('names a listed origin back as the browser sent it', () => {
    expect(exchange('GET', { origin: 'https://SHOP.example' }, list).set['access-control-allow-origin']).toBe(
      'https://SHOP.example',
    );
  });
});
