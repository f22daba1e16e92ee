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

/** A route's request-duration histogram on a service (its admin `/metrics`): count per bucket bound. */
export async function routeHistogram(service: RunningService, route: string): Promise<Map<number, number>> {
  const res = await get(service.healthUrl.replace(/\/health$/, '/metrics'), {});
  const buckets = new Map<number, number>();
  const line = /^tcg_http_request_duration_seconds_bucket\{([^}]*)\} (\d+(?:\.\d+)?)$/;
  for (const text of res.body.toString('utf8').split('\n')) {
    const m = line.exec(text);
    if (!m || !m[1]!.includes(`route="${route}"`)) continue;
    const le = /le="([^"]+)"/.exec(m[1]!)?.[1];
    if (le === undefined || le === '+Inf') continue;
    buckets.set(Number(le), (buckets.get(Number(le)) ?? 0) + Number(m[2]));
  }
  return buckets;
}

/**
 * The bucket bound, in milliseconds, under which 95% of the requests between two histograms of a
 * route were answered (the service's own time, arrival to the end of the answer); undefined when
 * none came or the 95th lies past the last bound.
 */
export function p95Bound(before: Map<number, number>, after: Map<number, number>): number | undefined {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = bounds.length > 0 ? after.get(bounds.at(-1)!)! - (before.get(bounds.at(-1)!) ?? 0) : 0;
  if (total <= 0) return undefined;
  const bound = bounds.find((le) => after.get(le)! - (before.get(le) ?? 0) >= 0.95 * total);
  return bound === undefined ? undefined : bound * 1000;
}
