import { generateApiKey } from '@tcg/domain';
import { Agent, request } from 'node:http';
import { startEchoUpstream } from './echo-upstream';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

/** A key of the generated shape that no one was ever given. */
const wellFormedRandomKey = (): string => generateApiKey();

/** Keep-alive connections from one loopback address (Linux routes all of 127/8 to lo). */
const agents = new Map<string, Agent>();
function agentFor(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 16, localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

function status(url: string, key: string, from = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: agentFor(from), headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs `count` calls, `concurrency` at a time; returns their results in order of completion. */
async function pool<T>(count: number, concurrency: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) out.push(await call(next++));
    }),
  );
  return out;
}

const count = (xs: number[]): Record<number, number> =>
  xs.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('gateway under a flood of random keys (real HTTP, real PostgreSQL)', () => {
  let stack: Stack;
  let echo: Awaited<ReturnType<typeof startEchoUpstream>>;
  let valid: string;

  beforeAll(async () => {
    echo = await startEchoUpstream();
    stack = await startStack({ v1Url: echo.url });
    valid = await newKey('enterprise');
    expect(await status(`${stack.gatewayUrl}/v1/x`, valid)).toBe(200);
  });
  afterAll(async () => {
    for (const a of agents.values()) a.destroy();
    await stack.close();
    await echo.close();
  });

  /** The flood, with the valid key called all along from the flooding address; returns both sets of statuses. */
  async function flood(
    n: number,
    key: (i: number) => string,
    from: (i: number) => string,
  ): Promise<{ flood: number[]; valid: number[] }> {
    const url = `${stack.gatewayUrl}/v1/x`;
    let done = false;
    const validStatuses: number[] = [];
    const steady = (async () => {
      while (!done) validStatuses.push(await status(url, valid));
    })();
    const floodStatuses = await pool(n, 32, (i) => status(url, key(i), from(i)));
    done = true;
    await steady;
    validStatuses.push(await status(url, valid));
    return { flood: floodStatuses, valid: validStatuses };
  }

  it('refuses 1,500 malformed and well-formed random keys from one address while the valid key is always admitted', async () => {
    const result = await flood(
      1500,
      (i) => (i % 2 === 0 ? wellFormedRandomKey() : `guess-${i}`),
      () => '127.0.0.1',
    );
    const seen = count(result.flood);
    expect(Object.keys(seen).sort()).toEqual(['401', '429']);
    expect(seen[401]).toBe(30); // AUTH_FAILURES_PER_MINUTE, the default; then the address is blocked
    expect(result.valid.length).toBeGreaterThan(5);
    expect(new Set(result.valid)).toEqual(new Set([200]));
  });

  it('refuses well-formed random keys spread over 20 addresses while the valid key is always admitted', async () => {
    const result = await flood(
      600,
      () => wellFormedRandomKey(),
      (i) => `127.0.0.${10 + (i % 20)}`,
    );
    // Each key is looked up once (401) until its address is blocked (429); lookups beyond what the
    // gateway lets wait on its pool are a 503, never a wait without bound.
    expect(result.flood.every((s) => s === 401 || s === 429 || s === 503)).toBe(true);
    expect(result.flood.filter((s) => s === 401).length).toBeLessThanOrEqual(20 * 30);
    expect(result.valid.length).toBeGreaterThan(5);
    expect(new Set(result.valid)).toEqual(new Set([200]));
  });
});
