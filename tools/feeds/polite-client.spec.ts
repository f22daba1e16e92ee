import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PoliteClient, retryAfterMs } from './polite-client';

describe('PoliteClient', () => {
  let server: Server;
  let base: string;
  let inFlight = 0;
  let most = 0;
  let answers: number[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        const status = answers.shift() ?? 200;
        if (status === 429) res.writeHead(429, { 'retry-after': req.url === '/long' ? '3600' : '0' }).end();
        else res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
      }, 20);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    most = 0;
    answers = [];
  });

  const politeness = { concurrency: 2, pauseMs: 0, retries: 2, maxRetryAfterMs: 1_000 };

  it('keeps at most `concurrency` requests in flight', async () => {
    const client = new PoliteClient(politeness);
    await Promise.all(Array.from({ length: 8 }, (_, i) => client.json(`${base}/${i}`, 1024)));
    expect(most).toBe(2);
    expect(client.stats.requests).toBe(8);
  });

  it('asks again after a 429, and gives up when the server asks to wait longer than allowed', async () => {
    const waits: number[] = [];
    const client = new PoliteClient(politeness, undefined, async (ms) => void waits.push(ms));
    answers = [429];
    await expect(client.json(`${base}/a`, 1024)).resolves.toEqual({
      body: { ok: true },
      lastModified: undefined,
    });
    expect(client.stats.retried).toBe(1);
    answers = [429];
    await expect(client.json(`${base}/long`, 1024)).rejects.toThrow(/asks to wait 3600 s: more than allowed/);
    answers = [429, 429, 429];
    await expect(client.json(`${base}/b`, 1024)).rejects.toThrow(/HTTP 429 after 3 attempts/);
    answers = [404];
    await expect(client.json(`${base}/c`, 1024)).resolves.toBeUndefined();
    answers = [500];
    await expect(client.json(`${base}/d`, 1024)).rejects.toThrow(/HTTP 500/);
  });

  it('pauses after each answer before that slot asks again', async () => {
    const waits: number[] = [];
    const client = new PoliteClient(
      { ...politeness, concurrency: 1, pauseMs: 250 },
      undefined,
      async (ms) => {
        waits.push(ms);
      },
    );
    await Promise.all([1, 2, 3].map((i) => client.json(`${base}/p${i}`, 1024)));
    expect(waits).toEqual([250, 250, 250]);
  });

  it('refuses an answer past its cap without asking for it again', async () => {
    const client = new PoliteClient(politeness);
    await expect(client.json(`${base}/big`, 4)).rejects.toThrow(/an answer longer than 4 bytes/);
    expect(client.stats.requests).toBe(1);
  });

  it.each<[string | undefined, number | undefined]>([
    ['120', 120_000],
    [' 0 ', 0],
    ['Fri, 27 Nov 2026 10:00:30 GMT', 30_000],
    ['Fri, 27 Nov 2026 09:00:00 GMT', 0],
    ['soon', undefined],
    ['-1', undefined],
    [undefined, undefined],
  ])('reads Retry-After %j as %j ms', (value, ms) => {
    expect(retryAfterMs(value, Date.parse('2026-11-27T10:00:00Z'))).toBe(ms);
  });
});
