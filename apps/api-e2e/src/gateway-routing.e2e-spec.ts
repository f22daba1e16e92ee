import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

describe('gateway routing (real HTTP to the real services)', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    stack = await startStack({ metrics: true });
    key = await newKey('enterprise');
  });
  afterAll(async () => {
    await stack.close();
  });

  it('answers /health without a key with up or degraded only; the details are on the admin port', async () => {
    for (const url of [stack.gatewayUrl, stack.v1Url, stack.v2Url]) {
      const res = await fetch(`${url}/health`);
      expect(res.status).toBe(200);
      expect(Object.keys((await res.json()) as object).sort()).toEqual(['service', 'status']);
    }
    expect(await (await fetch(`${stack.gatewayUrl}/health`)).json()).toEqual({
      status: 'ok',
      service: 'api-gateway',
    });
    const details = await fetch(stack.healthUrls.gateway);
    expect(details.status).toBe(200);
    expect(await details.json()).toEqual({
      status: 'ok',
      service: 'api-gateway',
      database: 'up',
      services: { 'api-v1': 'up', 'api-v2': 'up' },
      legacyKeys: 'read',
      limits: { store: 'postgres', counting: 'postgres' },
    });
    expect(await (await fetch(stack.healthUrls.v1)).json()).toMatchObject({
      status: 'ok',
      service: 'api-v1',
      database: 'up',
    });
  });

  it('serves both versions’ OpenAPI documents without a key, as docs/openapi holds them', async () => {
    for (const version of ['v1', 'v2']) {
      const res = await fetch(`${stack.gatewayUrl}/openapi/${version}.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const file = join(resolve(__dirname, '../../..'), 'docs/openapi', `api-${version}.json`);
      expect(await res.text()).toBe(readFileSync(file, 'utf8'));
    }
    expect((await fetch(`${stack.gatewayUrl}/openapi/v3.json`)).status).toBe(404);
  });

  it('routes /v1/* to api-v1, whose unknown paths are 404 in the v1 error shape', async () => {
    const res = await fetch(`${stack.gatewayUrl}/v1/no-such-endpoint`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      error: expect.stringContaining('/v1/no-such-endpoint'),
      code: 'NOT_FOUND',
    });
  });

  it('routes /v2/* to api-v2, whose errors are problem+json', async () => {
    const res = await fetch(`${stack.gatewayUrl}/v2/no-such-endpoint`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      type: expect.stringMatching(/#not-found$/),
    });
  });

  it('passes an x-request-id through, or creates one', async () => {
    const given = await fetch(`${stack.gatewayUrl}/v1/x`, {
      headers: { 'x-request-id': 'abc-123', 'x-api-key': key },
    });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const created = await fetch(`${stack.gatewayUrl}/v1/x`, { headers: { 'x-api-key': key } });
    expect(created.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('streams request bodies through to the service', async () => {
    const res = await fetch(`${stack.gatewayUrl}/v1/no-such-endpoint`, {
      method: 'POST',
      body: JSON.stringify([{ cardId: 'x' }]),
      headers: { 'content-type': 'application/json', 'x-api-key': key },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers its own unknown paths in the v1 shape', async () => {
    const res = await fetch(`${stack.gatewayUrl}/elsewhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
