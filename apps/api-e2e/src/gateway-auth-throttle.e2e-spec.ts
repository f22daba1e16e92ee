import { request } from 'node:http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

/** A GET from a chosen loopback address (Linux routes all of 127/8 to lo), as another client would. */
function getFrom(
  localAddress: string,
  url: string,
  key?: string,
): Promise<{ status: number; retryAfter?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { localAddress, headers: key === undefined ? {} : { 'x-api-key': key } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('gateway: repeated key failures from one address', () => {
  let stack: Stack;

  beforeAll(async () => {
    // Its own gateway with in-memory counters, so the blocked address does not affect other suites.
    stack = await startStack({ gatewayEnv: { AUTH_FAILURES_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('are slowed down with 429 and Retry-After; keys in use from there, and other addresses, keep working', async () => {
    const url = `${stack.gatewayUrl}/v1/x`;
    const inUse = await newKey('starter');
    expect((await getFrom('127.0.0.1', url, inUse)).status).toBe(404); // v1 has no /x: past admission

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await getFrom('127.0.0.1', url, `guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const blocked = await getFrom('127.0.0.1', url);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(blocked.body)).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    // While the block lasts, an unknown key gets 429 (one of the old shape, never issued, from
    // memory; one whose check verifies after its lookup)...
    expect((await getFrom('127.0.0.1', url, `tcg_${'a'.repeat(32)}`)).status).toBe(429);
    // ...a valid one never used before is served (the block throttles failures, not customers),
    const fresh = await newKey('starter');
    expect((await getFrom('127.0.0.1', url, fresh)).status).toBe(404);
    // and a key already in use from this address is not locked out by the guesser next to it,
    expect((await getFrom('127.0.0.1', url, inUse)).status).toBe(404);
    // and another address is not blocked at all.
    expect((await getFrom('127.0.0.2', url, fresh)).status).toBe(404);
    expect((await getFrom('127.0.0.2', url, 'tcg_short')).status).toBe(401);
  });
});
