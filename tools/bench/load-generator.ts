import autocannon from 'autocannon';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { Distribution, indexSource, percentile } from './sampling';

/**
 * The benchmark's load generator, a process of its own so that generating load never takes CPU
 * from inside the servers being measured (it still competes for the machine's cores, as any
 * client on the same machine does). It reads scenarios as JSON lines on stdin and answers each
 * with one JSON line on stdout, until stdin ends:
 *
 *   echo '{"kind":"load","url":"http://127.0.0.1:8080","paths":["/v1/games"],"distribution":"cycle",
 *          "seed":1,"connections":8,"duration":5}' | node dist/tools/bench/load-generator.js
 */
export interface LoadScenario {
  readonly kind: 'load';
  /** Origin of the server, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  /** Each request draws one path from this list by `distribution` (for Zipf, index 0 is the most popular). */
  readonly paths: readonly string[];
  readonly distribution: Distribution;
  readonly seed: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra headers for the path of the same index (e.g. its `If-None-Match`). */
  readonly pathHeaders?: readonly Readonly<Record<string, string>>[];
  /** `x-api-key` values handed out in turn, one per request. */
  readonly keys?: readonly string[];
  /** A POST body per request: a JSON array of `size` `{cardId}` items drawn uniformly from `ids`. */
  readonly batch?: { readonly ids: readonly string[]; readonly size: number };
  /** Statuses that count as success (default: 200-299); every other response is a failure. */
  readonly okStatuses?: readonly number[];
  readonly connections: number;
  /** Seconds. */
  readonly duration: number;
}

/** Sequential walks of a paginated listing, each following `Link: <…>; rel="next"` to its end. */
export interface WalkScenario {
  readonly kind: 'walk';
  readonly url: string;
  readonly firstPath: string;
  readonly keys?: readonly string[];
  readonly walks: number;
}

export type Scenario = LoadScenario | WalkScenario;

export interface LoadResult {
  readonly kind: 'load';
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  /** Milliseconds, from every response's time. */
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  /** Responses whose status is not a success for this scenario. */
  readonly failures: number;
  readonly statuses: Record<string, number>;
  /** Socket errors, timeouts included. */
  readonly errors: number;
  readonly timeouts: number;
  /** Bytes read, status lines and headers included. */
  readonly bytes: number;
  readonly bytesPerResponse: number;
}

export interface WalkResult {
  readonly kind: 'walk';
  readonly walks: number;
  /** Pages of the last complete walk. */
  readonly pages: number;
  /** Milliseconds per whole walk. */
  readonly p50: number;
  readonly min: number;
  readonly max: number;
  readonly failures: number;
  readonly statuses: Record<string, number>;
}

type ScenarioResult = LoadResult | WalkResult;

const round2 = (x: number): number => Math.round(x * 100) / 100;

export async function runLoad(s: LoadScenario): Promise<LoadResult> {
  const pick = indexSource(s.distribution, s.paths.length, s.seed);
  const random = indexSource('uniform', s.batch?.ids.length ?? 1, s.seed + 1);
  let k = 0;
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  const ok = s.okStatuses ? new Set(s.okStatuses) : undefined;
  let failures = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: s.url,
        connections: s.connections,
        duration: s.duration,
        requests: [
          {
            method: s.method ?? 'GET',
            setupRequest: (req) => {
              const i = pick();
              const headers: Record<string, string> = {
                ...(req.headers as Record<string, string>),
                ...s.headers,
                ...s.pathHeaders?.[i],
              };
              if (s.keys && s.keys.length > 0) headers['x-api-key'] = s.keys[k++ % s.keys.length]!;
              if (!s.batch) return { ...req, path: s.paths[i]!, headers };
              const ids = s.batch.ids;
              const items = Array.from({ length: s.batch.size }, () => ({ cardId: ids[random()]! }));
              headers['content-type'] = 'application/json';
              return { ...req, path: s.paths[i]!, headers, body: JSON.stringify(items) };
            },
          },
        ],
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
    instance.on('response', (_client, status, resBytes, ms) => {
      times.push(ms);
      bytes += resBytes;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (ok ? !ok.has(status) : status < 200 || status > 299) failures++;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    kind: 'load',
    requests: times.length,
    seconds: round2(seconds),
    rps: round2(times.length / seconds),
    p50: round2(percentile(times, 0.5)),
    p95: round2(percentile(times, 0.95)),
    p99: round2(percentile(times, 0.99)),
    max: round2(times[times.length - 1] ?? NaN),
    failures,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    bytes,
    bytesPerResponse: times.length > 0 ? Math.round(bytes / times.length) : 0,
  };
}

function getOnce(
  url: URL,
  agent: Agent,
  headers: Record<string, string>,
): Promise<{ status: number; link: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        const link = res.headers['link'];
        resolve({ status: res.statusCode ?? 0, link: Array.isArray(link) ? link.join(', ') : link });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function runWalk(s: WalkScenario): Promise<WalkResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let failures = 0;
  let pages = 0;
  let k = 0;
  try {
    for (let w = 0; w < s.walks; w++) {
      const started = performance.now();
      let next: URL | undefined = new URL(s.firstPath, s.url);
      let walkPages = 0;
      let failed = false;
      while (next) {
        const headers: Record<string, string> = {};
        if (s.keys && s.keys.length > 0) headers['x-api-key'] = s.keys[k++ % s.keys.length]!;
        const res = await getOnce(next, agent, headers);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        walkPages++;
        if (res.status !== 200) {
          failures++;
          failed = true;
          break;
        }
        const target = res.link?.match(/<([^>]+)>\s*;\s*rel="?next"?/)?.[1];
        next = target ? new URL(target, s.url) : undefined;
      }
      if (!failed) {
        times.push(performance.now() - started);
        pages = walkPages;
      }
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return {
    kind: 'walk',
    walks: times.length,
    pages,
    p50: round2(percentile(times, 0.5)),
    min: round2(times[0] ?? NaN),
    max: round2(times[times.length - 1] ?? NaN),
    failures,
    statuses,
  };
}

function runScenario(s: Scenario): Promise<ScenarioResult> {
  return s.kind === 'walk' ? runWalk(s) : runLoad(s);
}

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    try {
      const result = await runScenario(JSON.parse(line) as Scenario);
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ kind: 'error', error: (error as Error).message })}\n`);
    }
  }
}

if (require.main === module) void main();
