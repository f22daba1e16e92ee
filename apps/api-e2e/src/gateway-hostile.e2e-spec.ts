import { decodeUsage } from '@tcg/http-service/contract';
import { newKey } from './keys';
import { dribble, exchange, RawResponse, wire } from './raw-http';
import { startRecordingUpstream } from './recording-upstream';
import { startStack, Stack } from './stack';

/**
 * The gateway as a hostile client meets it (issue 9), black-box over real sockets: path forms that
 * Express or a service would normalise, bodies that would be smuggled onto a pooled upstream
 * connection, headers that must not leak, upstreams that hang, and clients that never finish.
 */

const portOf = (url: string) => Number(new URL(url).port);
const json = (r: RawResponse) => JSON.parse(r.body) as Record<string, unknown>;

/** Polls until `done()`; the suite's timeout bounds the wait. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 50));
}

/** Polls until `read()` reaches `want`; the suite's timeout bounds the wait. */
async function eventually(read: () => number, want: number): Promise<number> {
  while (read() < want) await new Promise((r) => setTimeout(r, 50));
  return read();
}

describe('gateway path forms (real services)', () => {
  // Costs 1 + 1 (graded=include) + 3 (three regions beyond the first) = 5 of starter's 60 a minute.
  const QUERY = 'q=dragon&regions=NA,EU,UK,JP&graded=include';
  const REMAINING_AFTER_ONE = 'remaining=55';
  let stack: Stack;
  let port: number;

  beforeAll(async () => {
    stack = await startStack();
    port = portOf(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack.close();
  });

  const get = async (target: string, key: string) => {
    const { responses } = await exchange(
      port,
      wire(`GET ${target} HTTP/1.1`, { 'x-api-key': key, connection: 'close' }),
    );
    expect(responses).toHaveLength(1);
    return responses[0]!;
  };

  it('serves the canonical v2 path at its full cost, with RateLimit headers', async () => {
    const res = await get(`/v2/cards?${QUERY}`, await newKey('starter'));
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit']).toContain(REMAINING_AFTER_ONE);
  });

  it.each([
    [`/V2/cards?${QUERY}`, 404],
    [`//v2/cards?${QUERY}`, 404],
    ['//v1/cards', 404],
    [`/v2%2fcards?${QUERY}`, 404],
    [`/v2%2Fcards?${QUERY}`, 404],
    [`/v2\\cards?${QUERY}`, 404],
    [`http://127.0.0.1/v2/cards?${QUERY}`, 404],
    [`/v1/../v2/cards?${QUERY}`, 400],
    [`/v1/%2e%2e/v2/cards?${QUERY}`, 400],
    [`/v1/%2E%2E/v2/cards?${QUERY}`, 400],
    [`/v2/./cards?${QUERY}`, 400],
    [`/v2//cards?${QUERY}`, 400],
    [`/v2/%63ards?${QUERY}`, 400],
    [`/v2/Cards?${QUERY}`, undefined],
    [`/v2/cards/?${QUERY}`, undefined],
    ['/v1/cards/', undefined],
  ])('%s is refused (%s) or charged as the v2 request it reaches, never a 5xx', async (target, status) => {
    const res = await get(target, await newKey('starter'));
    expect(res.status).toBeLessThan(500);
    if (status !== undefined) {
      expect(res.status).toBe(status);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
    const reachedV2 = res.headers['ratelimit'] !== undefined;
    if (res.status < 300 && target.includes(QUERY)) expect(reachedV2).toBe(true);
    if (reachedV2) expect(res.headers['ratelimit']).toContain(REMAINING_AFTER_ONE);
    expect(res.body).not.toMatch(/\bat \S+:\d+:\d+/); // no stack trace
  });

  it('answers in the shape of the version the exact prefix names', async () => {
    const key = await newKey('starter');
    const v1 = await get('/v1/../v2/cards', key);
    expect(json(v1)).toEqual({ error: expect.stringContaining('".."'), code: 'INVALID_REQUEST' });
    const v2 = await get('/v2/./cards', key);
    expect(v2.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(json(v2)).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    const none = await get('/V2/cards', key);
    expect(json(none)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a request target over 8 KiB with 414', async () => {
    const res = await get(`/v2/cards?q=${'a'.repeat(9_000)}`, await newKey('starter'));
    expect(res.status).toBe(414);
    expect(json(res)).toMatchObject({ status: 414, code: 'URI_TOO_LONG' });
  });
});

describe('gateway against hostile clients and a misbehaving service', () => {
  const SMUGGLED = 'GET /v1/smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
  let stack: Stack;
  let upstream: Awaited<ReturnType<typeof startRecordingUpstream>>;
  let port: number;

  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    stack = await startStack({
      v1Url: upstream.url,
      gatewayEnv: {
        UPSTREAM_TIMEOUT_MS: '1500',
        UPSTREAM_MAX_SOCKETS: '2',
        UPSTREAM_MAX_IN_FLIGHT: '4',
        SERVER_HEADERS_TIMEOUT_MS: '1000',
        SERVER_REQUEST_TIMEOUT_MS: '3000',
      },
    });
    port = portOf(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  const smuggledSeen = () => upstream.received.filter((r) => r.url.includes('smuggled')).length;
  const usageOf = (r: RawResponse | { usage: string | null }) =>
    decodeUsage(('body' in r ? (json(r)['usage'] as string) : r.usage) ?? undefined);

  describe('request smuggling', () => {
    it.each([
      ['GET with a Content-Length body', 'GET', { 'content-length': String(SMUGGLED.length) }, SMUGGLED],
      [
        'GET with a chunked body',
        'GET',
        { 'transfer-encoding': 'chunked' },
        `${SMUGGLED.length.toString(16)}\r\n${SMUGGLED}\r\n0\r\n\r\n`,
      ],
      ['HEAD with a body', 'HEAD', { 'content-length': String(SMUGGLED.length) }, SMUGGLED],
      ['DELETE with a body', 'DELETE', { 'content-length': String(SMUGGLED.length) }, SMUGGLED],
      ['OPTIONS with a chunked body', 'OPTIONS', { 'transfer-encoding': 'chunked' }, `0\r\n\r\n${SMUGGLED}`],
      [
        'POST with Content-Length and Transfer-Encoding',
        'POST',
        { 'content-length': '5', 'transfer-encoding': 'chunked' },
        `0\r\n\r\n${SMUGGLED}`,
      ],
      ['POST with an unknown Transfer-Encoding', 'POST', { 'transfer-encoding': 'xchunked' }, SMUGGLED],
      [
        'POST with two Content-Lengths',
        'POST',
        { 'content-length': `2\r\nContent-Length: ${SMUGGLED.length + 2}` },
        `[]${SMUGGLED}`,
      ],
    ])(
      '%s is a 400 that closes the connection, costs nothing and reaches no service',
      async (_, method, headers, body) => {
        const key = await newKey('starter');
        const before = upstream.received.length;
        const { responses, closedByServer } = await exchange(
          port,
          wire(`${method} /v1/cards HTTP/1.1`, { 'x-api-key': key, ...headers }, body),
        );
        expect(responses.map((r) => r.status)).toEqual([400]);
        expect(closedByServer).toBe(true);
        expect(upstream.received.length).toBe(before);
        expect(smuggledSeen()).toBe(0);

        const next = await exchange(
          port,
          wire('GET /v1/after HTTP/1.1', { 'x-api-key': key, connection: 'close' }),
        );
        expect(usageOf(next.responses[0]!)?.minute.used).toBe(1); // the refused request was free
      },
    );

    it('gives a victim on another connection its own answers while an attacker tries to smuggle', async () => {
      const [attacker, victim] = await Promise.all([newKey('enterprise'), newKey('starter')]);
      const attack = wire(
        'GET /v1/cards HTTP/1.1',
        { 'x-api-key': attacker, 'content-length': String(SMUGGLED.length) },
        SMUGGLED,
      );
      const attacks = Array.from({ length: 10 }, () => exchange(port, attack));
      const answers: RawResponse[] = [];
      for (let i = 1; i <= 5; i++) {
        const { responses } = await exchange(
          port,
          wire(`GET /v1/victim-${i} HTTP/1.1`, { 'x-api-key': victim, connection: 'close' }),
        );
        answers.push(...responses);
      }
      await Promise.all(attacks);
      expect(answers.map((r) => json(r)['url'])).toEqual([1, 2, 3, 4, 5].map((i) => `/v1/victim-${i}`));
      expect(answers.map((r) => usageOf(r)?.minute.used)).toEqual([1, 2, 3, 4, 5]);
      expect(answers.every((r) => usageOf(r)?.plan === 'starter')).toBe(true);
      expect(smuggledSeen()).toBe(0);
    });
  });

  describe('request bodies', () => {
    it('forwards a chunked POST body whole, framed by Content-Length', async () => {
      const key = await newKey('starter');
      const { responses } = await exchange(
        port,
        wire(
          'POST /v1/cards HTTP/1.1',
          {
            'x-api-key': key,
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
            connection: 'close',
          },
          '3\r\n[{"\r\nf\r\ncardId":"abc"}]\r\n0\r\n\r\n',
        ),
      );
      expect(responses.map((r) => r.status)).toEqual([200]);
      const seen = upstream.received.at(-1)!;
      expect(seen).toMatchObject({ method: 'POST', url: '/v1/cards', body: '[{"cardId":"abc"}]' });
      expect(seen.headers['content-length']).toBe('18');
      expect(seen.headers['transfer-encoding']).toBeUndefined();
    });

    it('refuses a body over 1 MiB with 413 whether its length is declared or chunked', async () => {
      const key = await newKey('starter');
      const before = upstream.received.length;
      const declared = await exchange(
        port,
        wire(
          'POST /v1/cards HTTP/1.1',
          { 'x-api-key': key, 'content-length': String(2 * 1024 * 1024) },
          '[{"cardId":',
        ),
      );
      expect(declared.responses.map((r) => r.status)).toEqual([413]);
      expect(json(declared.responses[0]!)).toEqual({ error: expect.any(String), code: 'PAYLOAD_TOO_LARGE' });
      expect(declared.closedByServer).toBe(true);

      // One chunk just over the cap and nothing after it: everything sent is read before the
      // gateway stops, so its close is a clean FIN and the 413 is not lost to a reset.
      const over = 1024 * 1024 + 1;
      const chunked = await exchange(
        port,
        wire(
          'POST /v1/cards HTTP/1.1',
          { 'x-api-key': key, 'transfer-encoding': 'chunked' },
          `${over.toString(16)}\r\n${'x'.repeat(over)}`,
        ),
      );
      expect(chunked.responses.map((r) => r.status)).toEqual([413]);
      expect(json(chunked.responses[0]!)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(chunked.closedByServer).toBe(true);
      expect(upstream.received.length).toBe(before);
    });
  });

  it('forwards no credentials, cookies or client-claimed forwarding headers, and leaks no internal ones', async () => {
    const key = await newKey('starter');
    const res = await fetch(`${stack.gatewayUrl}/v1/headers`, {
      headers: {
        'x-api-key': key,
        cookie: 'session=secret',
        authorization: 'Bearer secret',
        forwarded: 'for=203.0.113.1',
        'x-forwarded-for': '203.0.113.1',
        'x-real-ip': '203.0.113.1',
        'x-tcg-internal-credential': 'forged',
        accept: 'application/json',
        'user-agent': 'hostile-suite/1',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-tcg-leak')).toBeNull();
    const seen = upstream.received.at(-1)!.headers;
    for (const name of ['x-api-key', 'cookie', 'authorization', 'forwarded', 'x-forwarded-for', 'x-real-ip'])
      expect(seen[name]).toBeUndefined();
    expect(seen['x-tcg-internal-credential']).not.toBe('forged');
    expect(seen).toMatchObject({ accept: 'application/json', 'user-agent': 'hostile-suite/1' });
    expect(seen['x-request-id']).toEqual(expect.any(String));
  });

  describe('upstream deadlines', () => {
    it('answers every request to a hung service 504 or a quick 503, with Retry-After, even with the pool exhausted', async () => {
      const key = await newKey('enterprise');
      // Two sockets, four in flight at most: two hang on a socket, two wait for one, two are turned away.
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          fetch(`${stack.gatewayUrl}/v1/slow-${i}/hang`, { headers: { 'x-api-key': key } }).then(
            async (r) => ({
              status: r.status,
              retryAfter: r.headers.get('retry-after'),
              body: (await r.json()) as Record<string, unknown>,
            }),
          ),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([503, 503, 504, 504, 504, 504]);
      for (const r of results) {
        expect(r.retryAfter).toMatch(/^\d+$/);
        expect(r.body).toEqual({
          error: expect.any(String),
          code: r.status === 504 ? 'GATEWAY_TIMEOUT' : 'SERVICE_UNAVAILABLE',
        });
      }
      // Every hung request that reached the service has its connection closed, not pooled...
      expect(upstream.received.filter((r) => r.url.startsWith('/v1/slow-')).length).toBeGreaterThanOrEqual(2);
      await until(() => upstream.hanging() === 0);
      // ...and the pool serves again.
      const after = await fetch(`${stack.gatewayUrl}/v1/after-hang`, { headers: { 'x-api-key': key } });
      expect(after.status).toBe(200);
    });

    it('answers a connection the service drops with 503 SERVICE_UNAVAILABLE and Retry-After', async () => {
      const res = await fetch(`${stack.gatewayUrl}/v1/reset`, {
        headers: { 'x-api-key': await newKey('starter') },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await res.json()).toEqual({
        error: 'The api-v1 service is unavailable.',
        code: 'SERVICE_UNAVAILABLE',
      });
    });

    it('answers 503 when the service drops a small answer mid-body, none of it sent yet, and keeps serving', async () => {
      const key = await newKey('starter');
      const res = await fetch(`${stack.gatewayUrl}/v1/cut`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await res.json()).toEqual({
        error: 'The api-v1 service is unavailable.',
        code: 'SERVICE_UNAVAILABLE',
      });
      const after = await fetch(`${stack.gatewayUrl}/v1/after-cut`, { headers: { 'x-api-key': key } });
      expect(after.status).toBe(200);
    });

    it('cuts the client connection when the service drops a large answer mid-body, and keeps serving', async () => {
      const key = await newKey('starter');
      const { responses, closedByServer } = await exchange(
        port,
        wire('GET /v1/cut-large HTTP/1.1', { 'x-api-key': key }),
      );
      expect(closedByServer).toBe(true);
      // Streamed: the declared length stays, so the client can tell the answer is incomplete.
      expect(responses).toHaveLength(1);
      expect(responses[0]!.body).toBe('{"partial":');
      expect(responses[0]!.headers['content-length']).toBe('200000');
      const after = await fetch(`${stack.gatewayUrl}/v1/after-cut`, { headers: { 'x-api-key': key } });
      expect(after.status).toBe(200);
    });
  });

  describe('with an upstream deadline longer than the test', () => {
    let patient: Stack;

    beforeAll(async () => {
      patient = await startStack({ v1Url: upstream.url, gatewayEnv: { UPSTREAM_TIMEOUT_MS: '120000' } });
    });
    afterAll(async () => {
      await patient.close();
    });

    it('aborts the upstream request of a client that disconnects', async () => {
      const key = await newKey('starter');
      const receivedBefore = upstream.received.length;
      const client = exchange(
        portOf(patient.gatewayUrl),
        wire('GET /v1/gone/hang HTTP/1.1', { 'x-api-key': key }),
        300,
      );
      await eventually(() => upstream.received.length - receivedBefore, 1);
      expect(upstream.hanging()).toBe(1);
      await client; // closes the socket after 300 ms of silence
      // Only the client leaving can close the upstream request: its deadline is two minutes away.
      await until(() => upstream.hanging() === 0);
    });
  });

  it('closes clients that dribble their headers, while serving everyone else', async () => {
    const key = await newKey('enterprise');
    const slow = Array.from({ length: 30 }, () =>
      dribble(
        port,
        `GET /v1/cards HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\nx-pad: ${'a'.repeat(500)}`,
        100,
      ),
    );
    try {
      // One at a time: this stack lets only four requests at once reach the service.
      const served: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${stack.gatewayUrl}/v1/meanwhile-${i}`, { headers: { 'x-api-key': key } });
        served.push(res.status);
      }
      expect(served).toEqual(Array(10).fill(200));
      expect(slow.filter((s) => !s.socket.destroyed).length).toBeGreaterThan(0); // they were still there
    } catch (error) {
      for (const s of slow) s.socket.destroy();
      throw error;
    }
    const answers = await Promise.all(slow.map((s) => s.closed));
    for (const answer of answers) expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
  });
});
