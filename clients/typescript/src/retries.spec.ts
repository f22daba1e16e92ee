import {
  TcgAbortError,
  TcgApiError,
  TcgBadRequestError,
  TcgClient,
  TcgForbiddenError,
  TcgNetworkError,
  TcgNotFoundError,
  TcgRateLimitError,
  TcgResponseTooLargeError,
  TcgServerError,
  TcgTimeoutError,
  TcgUnauthorizedError,
  type TcgClientOptions,
} from './index.js';
import { json, type Reply, startServer, type TestServer } from './testing/http-server.js';

const V1_RATE_LIMITED = {
  error: 'The per-minute limit of the free plan is used up.',
  code: 'RATE_LIMIT_EXCEEDED',
};
const V1_UNAVAILABLE = { error: 'api-v1 is unavailable.', code: 'SERVICE_UNAVAILABLE' };
const GAMES = { data: [{ id: 'magic', name: 'Magic' }], _metadata: {} };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server answering request n with `replies[n]` (the last one again past the end). */
async function serve(...replies: Reply[]): Promise<TestServer> {
  server = await startServer((n) => replies[Math.min(n, replies.length - 1)]!);
  return server;
}

/** A client of `srv` whose waits between attempts are recorded, and taken for real only if `real`. */
function clientOf(srv: TestServer, options: Partial<TcgClientOptions> = {}, real = false) {
  const sleeps: number[] = [];
  const client = new TcgClient({
    baseUrl: srv.url,
    apiKey: 'test-key',
    random: () => 0.5,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (real) await new Promise((r) => setTimeout(r, ms));
      signal?.throwIfAborted();
    },
    ...options,
  });
  return { client, sleeps };
}

/** What a call threw (fails the test when it did not throw). */
async function thrown(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('retries', () => {
  it('waits at least what Retry-After says before sending a 429-refused GET again (timed for real)', async () => {
    const srv = await serve(json(429, V1_RATE_LIMITED, { 'retry-after': '1' }), json(200, GAMES));
    const { client, sleeps } = clientOf(srv, {}, true);
    const games = await client.v1.games.list();
    expect(games.data).toEqual(GAMES.data);
    expect(srv.seen).toHaveLength(2);
    expect(srv.seen[1]!.at - srv.seen[0]!.at).toBeGreaterThanOrEqual(1000);
    // Retry-After plus a random spread of up to retryBaseMs (500 ms × 0.5 here).
    expect(sleeps).toEqual([1250]);
  });

  it('backs off exponentially with jitter on 503 without Retry-After, then succeeds', async () => {
    const srv = await serve(json(503, V1_UNAVAILABLE), json(503, V1_UNAVAILABLE), json(200, GAMES));
    const { client, sleeps } = clientOf(srv, { retryBaseMs: 100 });
    await expect(client.v1.games.list()).resolves.toMatchObject({ data: GAMES.data });
    expect(srv.seen).toHaveLength(3);
    // Half of each step fixed, half random (0.5 here): 100 → 75, 200 → 150.
    expect(sleeps).toEqual([75, 150]);
  });

  it.each([
    [0, [50, 100, 200, 400, 400]],
    [0.999, [100, 200, 400, 800, 800]],
  ])('keeps each step between half and all of its ceiling, capped (random %p)', async (r, expected) => {
    const srv = await serve(json(503, V1_UNAVAILABLE));
    const { client, sleeps } = clientOf(srv, {
      random: () => r,
      retries: 5,
      retryBaseMs: 100,
      retryMaxDelayMs: 800,
    });
    expect(await thrown(client.v1.games.list())).toBeInstanceOf(TcgServerError);
    expect(srv.seen).toHaveLength(6);
    expect(sleeps).toEqual(expected);
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const at = new Date(Date.now() + 3000).toUTCString();
    const srv = await serve(json(429, V1_RATE_LIMITED, { 'retry-after': at }), json(200, GAMES));
    const { client, sleeps } = clientOf(srv);
    await client.v1.games.list();
    expect(sleeps).toHaveLength(1);
    // The date has whole seconds: 2 to 3 s from now, never less than it says.
    expect(sleeps[0]!).toBeGreaterThanOrEqual(2000);
    expect(sleeps[0]!).toBeLessThanOrEqual(3500);
  });

  it('gives a 429 back at once, with retryAfter, when Retry-After is past the wait budget', async () => {
    const srv = await serve(json(429, V1_RATE_LIMITED, { 'retry-after': '45' }), json(200, GAMES));
    const { client, sleeps } = clientOf(srv, { maxRetryWaitMs: 30_000 });
    const error = await thrown(client.v1.cards.list({ q: 'dragon' }));
    expect(error).toBeInstanceOf(TcgRateLimitError);
    expect(error).toMatchObject({
      status: 429,
      kind: 'rate_limited',
      code: 'RATE_LIMIT_EXCEEDED',
      retryAfter: 45,
      message: V1_RATE_LIMITED.error,
      body: V1_RATE_LIMITED,
    });
    expect(srv.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('stops when the waits would add up past maxRetryWaitMs', async () => {
    const srv = await serve(json(503, V1_UNAVAILABLE, { 'retry-after': '2' }));
    const { client, sleeps } = clientOf(srv, { retries: 5, maxRetryWaitMs: 5000 });
    expect(await thrown(client.v1.games.list())).toMatchObject({ status: 503, retryAfter: 2 });
    // 2,250 then 2,250 more is 4,500; a third would pass 5,000.
    expect(sleeps).toEqual([2250, 2250]);
    expect(srv.seen).toHaveLength(3);
  });

  it('gives the last answer once the retries are spent', async () => {
    const srv = await serve(json(503, V1_UNAVAILABLE, { 'retry-after': '1' }));
    const { client } = clientOf(srv, { retries: 2 });
    const error = await thrown(client.v1.games.list());
    expect(error).toBeInstanceOf(TcgServerError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 1 });
    expect(srv.seen).toHaveLength(3);
  });

  it('retries = 0 (per client or per call) sends once', async () => {
    const srv = await serve(json(503, V1_UNAVAILABLE));
    expect(await thrown(clientOf(srv, { retries: 0 }).client.v1.games.list())).toBeInstanceOf(TcgServerError);
    expect(await thrown(clientOf(srv).client.v1.games.list({}, { retries: 0 }))).toBeInstanceOf(
      TcgServerError,
    );
    expect(srv.seen).toHaveLength(2);
  });

  it('sends a GET again after a broken connection', async () => {
    const srv = await serve({ destroy: true }, json(200, GAMES));
    const { client, sleeps } = clientOf(srv);
    await expect(client.v1.games.list()).resolves.toMatchObject({ data: GAMES.data });
    expect(srv.seen).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('sends the batch POST again on 429 and 503, never after a broken connection', async () => {
    const page = { data: [], meta: { total: 0, limit: 1, offset: 0, hasMore: false }, _metadata: {} };
    let srv = await serve(
      json(429, V1_RATE_LIMITED, { 'retry-after': '0' }),
      json(503, V1_UNAVAILABLE),
      json(200, page),
    );
    await expect(clientOf(srv).client.v1.cards.batch([{ cardId: 'x' }])).resolves.toEqual(page);
    expect(srv.seen.map((s) => [s.method, s.body])).toEqual(Array(3).fill(['POST', '[{"cardId":"x"}]']));
    await srv.close();

    srv = await serve({ destroy: true }, json(200, page));
    const error = await thrown(clientOf(srv).client.v1.cards.batch([{ cardId: 'x' }]));
    expect(error).toBeInstanceOf(TcgNetworkError);
    expect(srv.seen).toHaveLength(1);
  });

  it('sends an alert creation or deletion again on 429 only', async () => {
    const created = { data: { id: 'a1' }, _metadata: {} };
    let srv = await serve(json(503, V1_UNAVAILABLE), json(201, created));
    const body = { card_id: 'c', rule: 'price_above' as const, value: 1, url: 'https://example.com/h' };
    expect(await thrown(clientOf(srv).client.v1.alerts.create(body))).toBeInstanceOf(TcgServerError);
    expect(srv.seen).toHaveLength(1);
    await srv.close();

    srv = await serve(json(429, V1_RATE_LIMITED, { 'retry-after': '0' }), json(201, created));
    await expect(clientOf(srv).client.v1.alerts.create(body)).resolves.toEqual(created);
    expect(srv.seen).toHaveLength(2);
    await srv.close();

    srv = await serve(json(503, V1_UNAVAILABLE), { status: 204 });
    expect(await thrown(clientOf(srv).client.v1.alerts.delete('a1'))).toBeInstanceOf(TcgServerError);
    expect(srv.seen).toHaveLength(1);
  });

  it('never retries 400, 401, 403, 404, 500 or 504', async () => {
    for (const status of [400, 401, 403, 404, 500, 504]) {
      const srv = await serve(json(status, { error: 'no', code: 'X' }), json(200, GAMES));
      expect([status, await thrown(clientOf(srv).client.v1.games.list())]).toEqual([
        status,
        expect.any(TcgApiError),
      ]);
      expect([status, srv.seen.length]).toEqual([status, 1]);
      await srv.close();
    }
  });
});

describe('errors', () => {
  it('types each status, with the v1 body', async () => {
    const cases = [
      [400, TcgBadRequestError, 'bad_request', 'INVALID_REQUEST'],
      [401, TcgUnauthorizedError, 'unauthorized', 'INVALID_API_KEY'],
      [403, TcgForbiddenError, 'forbidden', 'FORBIDDEN'],
      [404, TcgNotFoundError, 'not_found', 'NOT_FOUND'],
      [429, TcgRateLimitError, 'rate_limited', 'DAILY_LIMIT_EXCEEDED'],
      [500, TcgServerError, 'server', 'INTERNAL_ERROR'],
      [413, TcgApiError, 'other', 'PAYLOAD_TOO_LARGE'],
    ] as const;
    for (const [status, type, kind, code] of cases) {
      const body = { error: `said for ${status}`, code };
      const srv = await serve(json(status, body, { 'x-request-id': `req-${status}`, 'retry-after': '100' }));
      const error = await thrown(clientOf(srv, { retries: 0 }).client.v1.sets.list({ game: 'magic' }));
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({
        status,
        kind,
        code,
        message: `said for ${status}`,
        body,
        method: 'GET',
        path: '/v1/sets?game=magic',
        requestId: `req-${status}`,
        retryAfter: 100,
      });
      await srv.close();
    }
  });

  it('reads a v2 problem: the message is its detail', async () => {
    const problem = {
      type: 'https://docs.example.com/errors#not-found',
      title: 'Not found',
      status: 404,
      detail: "No card 'nope'.",
      code: 'NOT_FOUND',
    };
    const srv = await serve({
      status: 404,
      text: JSON.stringify(problem),
      headers: { 'content-type': 'application/problem+json' },
    });
    const error = await thrown(clientOf(srv).client.v2.cards.get('nope'));
    expect(error).toBeInstanceOf(TcgNotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: "No card 'nope'.",
      body: problem,
    });
  });

  it('says what came when an error answer is not JSON', async () => {
    const srv = await serve({
      status: 502,
      text: '<html>bad gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    const error = await thrown(clientOf(srv).client.v1.games.list());
    expect(error).toBeInstanceOf(TcgServerError);
    expect(error).toMatchObject({
      status: 502,
      code: 'HTTP_502',
      body: '<html>bad gateway</html>',
      message: 'GET /v1/games answered 502: <html>bad gateway</html>',
      retryAfter: undefined,
    });
  });

  it('a connection refused is a TcgNetworkError carrying what fetch threw', async () => {
    const srv = await serve(json(200, GAMES));
    const url = srv.url;
    await srv.close();
    server = undefined;
    const { client, sleeps } = clientOf({ url, seen: [], close: async () => undefined }, { retries: 1 });
    const error = await thrown(client.v1.games.list());
    expect(error).toBeInstanceOf(TcgNetworkError);
    expect((error as TcgNetworkError).message).toMatch(/^GET \/v1\/games failed: .*ECONNREFUSED/);
    expect((error as TcgNetworkError).cause).toMatchObject({ name: 'TypeError' });
    expect(sleeps).toHaveLength(1);
  });
});

describe('deadlines', () => {
  it('a call with no answer within timeoutMs is a TcgTimeoutError, not retried', async () => {
    const srv = await serve({ ...json(200, GAMES), delayMs: 3000 });
    const { client, sleeps } = clientOf(srv, { timeoutMs: 200 });
    const started = performance.now();
    const error = await thrown(client.v1.games.list());
    expect(error).toBeInstanceOf(TcgTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200, method: 'GET', path: '/v1/games' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(srv.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('a body that stalls after the head times out too; a call may set its own deadline', async () => {
    const srv = await serve({ ...json(200, GAMES), stall: true });
    const { client } = clientOf(srv, { timeoutMs: 60_000 });
    const started = performance.now();
    const error = await thrown(client.v1.games.list({}, { timeoutMs: 300 }));
    expect(error).toMatchObject({ name: 'TcgTimeoutError', timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("the caller's signal aborts a request in flight", async () => {
    const srv = await serve({ ...json(200, GAMES), delayMs: 3000 });
    const { client } = clientOf(srv);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 100);
    const error = await thrown(client.v1.games.list({}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(TcgAbortError);
    expect((error as TcgAbortError).cause).toEqual(new Error('user left'));
  });

  it("the caller's signal aborts the wait between attempts (the real timer)", async () => {
    const srv = await serve(json(429, V1_RATE_LIMITED, { 'retry-after': '5' }), json(200, GAMES));
    const client = new TcgClient({ baseUrl: srv.url, apiKey: 'k' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const error = await thrown(client.v1.games.list({}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(TcgAbortError);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(srv.seen).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const srv = await serve(json(200, GAMES));
    const error = await thrown(clientOf(srv).client.v1.games.list({}, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(TcgAbortError);
    expect(srv.seen).toHaveLength(0);
  });
});

describe('answer size', () => {
  const size = Buffer.byteLength(JSON.stringify(GAMES));

  it('reads an answer up to maxResponseBytes whole, multi-byte text included', async () => {
    const named = { data: [{ id: 'pokémon', name: 'Pokémon' }], _metadata: {} };
    const srv = await serve(json(200, named));
    const { client } = clientOf(srv, { maxResponseBytes: Buffer.byteLength(JSON.stringify(named)) });
    expect(await client.v1.games.list()).toEqual(named);
  });

  it('refuses a longer answer with TcgResponseTooLargeError, not retried', async () => {
    const srv = await serve(json(200, GAMES));
    const { client, sleeps } = clientOf(srv, { maxResponseBytes: size - 1 });
    const error = await thrown(client.v1.games.list());
    expect(error).toBeInstanceOf(TcgResponseTooLargeError);
    expect(error).toMatchObject({ maxResponseBytes: size - 1, method: 'GET', path: '/v1/games' });
    expect(srv.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});
