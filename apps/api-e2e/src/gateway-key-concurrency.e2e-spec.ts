import { PLANS } from '@tcg/domain';
import { decodeUsage, INTERNAL_HEADERS } from '@tcg/http-service/contract';
import { startEchoUpstream } from './echo-upstream';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

/** What the concurrent requests below got back: status, v1 body and Retry-After. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfter: string | null;
}

describe('per-key concurrency in the gateway', () => {
  let stack: Stack;
  let upstream: Awaited<ReturnType<typeof startEchoUpstream>>;

  beforeAll(async () => {
    // Each answer takes 1.5 s (under the stack's 2 s upstream deadline): requests overlap for sure.
    upstream = await startEchoUpstream({ delayMs: 1_500 });
    stack = await startStack({ v1Url: upstream.url, metrics: true });
  });
  afterAll(async () => {
    await stack?.close();
    await upstream?.close();
  });

  const burst = (path: string, key: string, n: number): Promise<Answer[]> =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const res = await fetch(`${stack.gatewayUrl}${path}`, {
          headers: { 'x-api-key': key },
          signal: AbortSignal.timeout(10_000),
        });
        return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
      }),
    );
  const lastUsage = () => decodeUsage(upstream.received.at(-1)?.[INTERNAL_HEADERS.usage] as string);

  it("admits the plan's concurrentRequests of one key at once; the others get 429 in the v1 shape, uncharged", async () => {
    const key = await newKey('starter');
    const answers = await burst('/v1/games', key, 20);
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect([admitted.length, refused.length]).toEqual([PLANS.starter.concurrentRequests, 12]);
    for (const a of refused) {
      expect(a.body).toEqual({
        error: 'The starter plan allows 8 requests in progress at once per key; wait for one to finish.',
        code: 'RATE_LIMIT_EXCEEDED',
      });
      expect(a.retryAfter).toBe('1');
    }

    // Once those are done the key is served again, and only the admitted requests were charged.
    const after = await burst('/v1/games', key, 1);
    expect(after[0]!.status).toBe(200);
    // The month's count: a minute's may start again between the burst and this request.
    expect(lastUsage()?.month.used).toBe(PLANS.starter.concurrentRequests + 1);
  });

  it('another key is not refused while one key has all its places', async () => {
    const [busy, other] = await Promise.all([newKey('free'), newKey('free')]);
    const [crowd, alone] = await Promise.all([burst('/v1/games', busy, 6), burst('/v1/games', other, 1)]);
    expect(crowd.filter((a) => a.status === 200).length).toBe(PLANS.free.concurrentRequests);
    expect(alone.map((a) => a.status)).toEqual([200]);
  });

  it("admits the plan's concurrentDownloads of one key at once and counts the refusals", async () => {
    const key = await newKey('starter');
    const answers = await burst('/v1/bulk/test-game/ndjson.gz', key, 5);
    expect(answers.filter((a) => a.status === 200).length).toBe(PLANS.starter.concurrentDownloads);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(3);
    expect(refused[0]!.body).toEqual({
      error: 'The starter plan allows 2 downloads in progress at once per key; wait for one to finish.',
      code: 'RATE_LIMIT_EXCEEDED',
    });
    const metrics = await (await fetch(stack.metricsUrls.gateway)).text();
    expect(metrics).toMatch(
      /^tcg_gateway_concurrency_refusals_total\{limit="downloads",service="api-gateway"\} 3$/m,
    );
  });
});
