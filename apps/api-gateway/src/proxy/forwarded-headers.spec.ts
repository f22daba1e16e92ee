import { clientResponseHeaders, upstreamRequestHeaders } from './forwarded-headers';

describe('forwarded headers', () => {
  it('forwards only content negotiation, conditionals and the user agent to a service', () => {
    expect(
      upstreamRequestHeaders({
        accept: 'application/json',
        'accept-encoding': 'gzip',
        'if-none-match': '"x"',
        'user-agent': 'client/1',
        'content-type': 'application/json',
        'x-api-key': 'secret',
        cookie: 'a=b',
        authorization: 'Bearer t',
        forwarded: 'for=1.2.3.4',
        'x-forwarded-for': '1.2.3.4',
        'x-tcg-usage': '{}',
        'x-tcg-internal-credential': 'forged',
        'content-length': '5',
        'transfer-encoding': 'chunked',
        host: 'evil',
        connection: 'keep-alive, x-api-key',
      }),
    ).toEqual({
      accept: 'application/json',
      'accept-encoding': 'gzip',
      'if-none-match': '"x"',
      'user-agent': 'client/1',
      'content-type': 'application/json',
    });
  });

  it('drops hop-by-hop, connection-nominated, internal and gateway-owned response headers', () => {
    expect(
      clientResponseHeaders({
        'content-type': 'application/json',
        'content-length': '2',
        etag: '"e"',
        link: '<x>; rel="next"',
        connection: 'keep-alive, x-debug',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        'x-debug': 'internal',
        'x-tcg-anything': 'secret',
        'set-cookie': ['a=b'],
        'x-powered-by': 'Express',
        ratelimit: 'limit=1, remaining=1, reset=1',
      }),
    ).toEqual({
      'content-type': 'application/json',
      'content-length': '2',
      etag: '"e"',
      link: '<x>; rel="next"',
    });
  });

  it('passes the validators, caching and encoding headers of a service through unchanged', () => {
    const cached = {
      etag: '"v42-abc"',
      'cache-control': 'public, max-age=5, stale-while-revalidate=30',
      vary: 'Accept-Encoding',
      'content-encoding': 'br',
      'x-data-version': '42',
    };
    for (const connection of [undefined, 'keep-alive', 'close', 'Keep-Alive, X-Debug'])
      expect(clientResponseHeaders({ ...cached, connection, 'x-debug': 'internal' })).toEqual(
        connection?.includes('X-Debug') ? cached : { ...cached, 'x-debug': 'internal' },
      );
  });
});
