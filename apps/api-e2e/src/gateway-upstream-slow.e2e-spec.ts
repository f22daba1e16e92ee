import { startEchoUpstream } from './echo-upstream';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

describe('gateway with a slow api-v1', () => {
  let stack: Stack;
  let slow: Awaited<ReturnType<typeof startEchoUpstream>>;

  beforeAll(async () => {
    slow = await startEchoUpstream({ delayMs: 5_000 }); // the stack's UPSTREAM_TIMEOUT_MS is 2000
    stack = await startStack({ v1Url: slow.url });
  });
  afterAll(async () => {
    await stack.close();
    await slow.close();
  });

  it('answers 504 in the v1 shape after the upstream timeout, never a hang', async () => {
    // The upstream answers after 5 s and the client gives up at 4.5 s: a 504 at all means the
    // gateway's own deadline answered.
    const res = await fetch(`${stack.gatewayUrl}/v1/games`, {
      headers: { 'x-api-key': await newKey('starter') },
      signal: AbortSignal.timeout(4_500),
    });
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({
      error: 'The api-v1 service did not answer in time.',
      code: 'GATEWAY_TIMEOUT',
    });
    expect(res.headers.get('retry-after')).toBe('1');
  });
});
