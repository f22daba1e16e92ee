import { newKey } from './keys';
import { startStack, Stack } from './stack';

describe('gateway: repeated key failures from one address', () => {
  let stack: Stack;

  beforeAll(async () => {
    // Its own gateway with in-memory counters, so the blocked address does not affect other suites.
    stack = await startStack({ gatewayEnv: { AUTH_FAILURES_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('are slowed down with 429 and Retry-After, while valid keys keep working', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await fetch(`${stack.gatewayUrl}/v1/x`, { headers: { 'x-api-key': `guess-${i}` } })).status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const blocked = await fetch(`${stack.gatewayUrl}/v1/x`);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    const valid = await fetch(`${stack.gatewayUrl}/v1/x`, {
      headers: { 'x-api-key': await newKey('starter') },
    });
    expect(valid.status).toBe(404);
  });
});
