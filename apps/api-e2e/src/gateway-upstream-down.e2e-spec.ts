import { newKey } from './keys';
import { startStack, Stack } from './stack';

describe('gateway with api-v1 down', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ v1Down: true, metrics: true });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('gives 503 in the v1 error shape at once, never a hang', async () => {
    const res = await fetch(`${stack.gatewayUrl}/v1/games`, {
      headers: { 'x-api-key': await newKey('starter') },
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: 'The api-v1 service is unavailable.',
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('says degraded on /health, and which service is down on the admin port', async () => {
    const res = await fetch(`${stack.gatewayUrl}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'degraded', service: 'api-gateway' });
    const details = await fetch(stack.healthUrls.gateway);
    expect(details.status).toBe(503);
    expect(await details.json()).toMatchObject({
      status: 'degraded',
      services: { 'api-v1': 'down', 'api-v2': 'up' },
    });
  });
});
