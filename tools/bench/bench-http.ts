import { Agent, request } from 'node:http';
import { log } from '../common/log';
import type { RunningService } from './services';

/** The bench's own requests (samples, ETags, /health), apart from the load generator's. */
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One GET with exactly these headers (fetch would add its own Accept-Encoding). */
export function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return send('GET', url, headers);
}

/** One request with exactly these headers and, for a POST, this JSON body. */
export function send(
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const payload = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
  const all = payload ? { ...headers, 'content-type': 'application/json' } : headers;
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers: all }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs `work` over `items` with `concurrency` in flight. */
export async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

/**
 * The response cache's counters from a service's health details (admin port), if it reports
 * them. Right after a row the service may still be working off requests the load left queued, and
 * its health check (a database round trip under a deadline) can fail: it is asked again, for up to
 * 10 s, until it answers 200.
 */
export async function cacheCounters(
  service: RunningService,
): Promise<{ hits: number; misses: number } | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const res = await get(service.healthUrl, {});
      if (res.status === 200) {
        const c = (
          JSON.parse(res.body.toString('utf8')) as { responseCache?: { hits?: unknown; misses?: unknown } }
        ).responseCache;
        return c && typeof c.hits === 'number' && typeof c.misses === 'number'
          ? { hits: c.hits, misses: c.misses }
          : undefined;
      }
    } catch {
      // asked again below
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  log('warn', 'no healthy /health answer: cache hit ratio not known for this row', { service: service.name });
  return undefined;
}

/** Closes the keep-alive sockets of the bench's own requests. */
export function closeBenchHttp(): void {
  agent.destroy();
}
