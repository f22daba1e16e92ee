import { DynamicModule, Global, InjectionToken, Module } from '@nestjs/common';
import { DataVersionSource } from '@tcg/domain';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { canonicalJson } from './canonical-json';
import { negotiateCoding } from './content-coding';
import { entityTag, ifNoneMatchHits } from './entity-tag';
import { CompressionPolicy, Representation } from './representation';
import { ResponseCache, ResponseCacheStats } from './response-cache';
import { ServiceEnvironment } from '../environment';
import { ServiceMetrics } from '../observability/metrics';

/**
 * What a handler answers: a JSON body, as an object or as its JSON text (an object's, without the
 * per-request member; one string or the strings to send one after another), and its headers
 * besides the caching ones.
 */
export type Answer = ({ readonly body: object } | { readonly json: string | readonly string[] }) & {
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The cards (by UUID) the answer is made of, when it is made of them alone: their rows and what
   * a version changing no card leaves as it is. Such an answer outlives versions that write other
   * cards. Left out, the answer is dropped at every new version (a page, a search, a miss).
   */
  readonly cards?: readonly string[];
};

export interface SendOptions {
  /**
   * What the answer depends on besides the data version, usually the plan and the request target;
   * null for an answer that is never cached or validated (a POST).
   */
  readonly key: string | null;
  /**
   * A member of the body that differs per request (v1 `_metadata`), with this request's value:
   * removed from what is computed and cached, and sent last.
   */
  readonly perRequest?: { readonly name: string; readonly value: unknown };
}

/**
 * Clients may reuse an answer for a minute and, while revalidating, a minute more. `private`:
 * answers depend on the caller's key (plan limits, usage), so a shared cache must not keep them.
 */
const CACHE_CONTROL = 'private, max-age=60, stale-while-revalidate=60';

/**
 * Compression effort: quick for an answer's first sends (brotli 1, gzip 1), thorough once it is
 * asked for again (brotli 5, gzip 6: about three times the CPU for a smaller body, paid once per
 * cached answer). An answer that is never cached (a POST) is sent once: quick only.
 */
export const COMPRESSION: CompressionPolicy = {
  cold: { brotliQuality: 1, gzipLevel: 1 },
  hot: { brotliQuality: 5, gzipLevel: 6 },
};
const ONCE: CompressionPolicy = { cold: COMPRESSION.cold, hot: COMPRESSION.cold };

const JSON_TYPE = 'application/json; charset=utf-8';
const EMPTY = Buffer.alloc(0);

/**
 * Sends a handler's answers: from the response cache when the same request was answered at the
 * current data version, else computed once (concurrent identical requests share one computation)
 * and kept. Every GET answer carries an entity tag and Cache-Control, and `If-None-Match` gets a
 * 304; bodies go out br or gzip as Accept-Encoding asks, each encoded once per cached answer.
 * While the data version is unknown nothing is cached or served from the cache.
 */
export class CachedResponder {
  private readonly inflight = new Map<string, Promise<Computed>>();
  private readonly doorkeeper = new Doorkeeper();
  /** The cache is being moved to the current version: nothing is kept until it is there. */
  private catchingUp = false;

  constructor(
    private readonly cache: ResponseCache | null,
    private readonly versions: DataVersionSource,
  ) {
    // An answer of an older version is never served (ResponseCache checks the version): this moves
    // the cache to the new one with the answers whose cards it did not change, or empties it.
    versions.onChange(() => void this.catchUp());
  }

  /**
   * Moves the cache to the current version, one read of the change log per step
   * (`changedCards`), until it is there. While the version is unknown the entries wait (none is
   * served); once it is known again they are carried over only if the log still covers the gap.
   */
  private async catchUp(): Promise<void> {
    const cache = this.cache;
    if (cache === null || this.catchingUp) return;
    this.catchingUp = true;
    try {
      for (;;) {
        const from = cache.at;
        const to = this.versions.current();
        if (from === null || to === null || to === from) return;
        if (to < from) {
          // Another database, or one restored: nothing cached can be compared with it.
          cache.clear();
          return;
        }
        const changed = this.versions.changedCards
          ? await this.versions.changedCards(from, to).catch(() => null)
          : null;
        cache.advance(from, to, changed);
      }
    } finally {
      this.catchingUp = false;
    }
  }

  async send(
    req: IncomingMessage,
    res: ServerResponse,
    options: SendOptions,
    compute: () => Promise<Answer>,
  ): Promise<void> {
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    const key = readOnly ? options.key : null;
    const version = this.versions.current();
    const perRequest = options.perRequest;
    const build = async (policy: CompressionPolicy): Promise<Computed> => {
      const answer = await compute();
      let parts: string[];
      if ('json' in answer) parts = typeof answer.json === 'string' ? [answer.json] : [...answer.json];
      else {
        let body = answer.body as Record<string, unknown>;
        if (perRequest !== undefined) {
          const { [perRequest.name]: _ignored, ...rest } = body;
          body = rest;
        }
        parts = [JSON.stringify(body)];
      }
      // The tail closes the object: the text's last part ends with its `}`.
      if (perRequest !== undefined) parts[parts.length - 1] = parts[parts.length - 1]!.slice(0, -1);
      const rep = new Representation(
        utf8Concat(parts),
        answer.headers ?? {},
        perRequest !== undefined,
        policy,
      );
      return { rep, cards: answer.cards ?? null };
    };

    let rep: Representation | undefined;
    const cache = key !== null && version !== null ? this.cache : null;
    if (cache) rep = cache.get(key!, version!);
    if (rep === undefined) {
      if (cache) {
        const flight = `${version}\n${key}`;
        let pending = this.inflight.get(flight);
        if (pending === undefined) {
          // One computation counts once however many requests share it. Kept only if no newer
          // version was announced while it was computed, and from the second computation on.
          const admitted = this.doorkeeper.admit(key!);
          pending = build(COMPRESSION)
            .then((computed) => {
              if (admitted && !this.catchingUp && this.versions.current() === version)
                cache.set(key!, version!, computed.rep, computed.cards);
              return computed;
            })
            .finally(() => this.inflight.delete(flight));
          this.inflight.set(flight, pending);
        }
        rep = (await pending).rep;
      } else {
        rep = (await build(key === null ? ONCE : COMPRESSION)).rep;
      }
    }
    const coding0 = negotiateCoding(req.headers['accept-encoding']);
    const tail =
      perRequest === undefined
        ? EMPTY
        : Buffer.from(
            `${rep.head.length > 1 ? ',' : ''}${JSON.stringify(perRequest.name)}:${JSON.stringify(perRequest.value)}}`,
          );
    const coding = rep.codingFor(coding0, tail);
    const headers: OutgoingHttpHeaders = { ...rep.headers, vary: 'Accept-Encoding' };
    if (version !== null) headers['x-data-version'] = String(version);
    if (key !== null) {
      headers['etag'] = entityTag(rep.opaqueTag, rep.weak, coding);
      headers['cache-control'] = CACHE_CONTROL;
      if (ifNoneMatchHits(req.headers['if-none-match'], rep.opaqueTag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
    }
    const before = rep.bytes;
    const chunks = rep.body(coding, tail);
    if (cache && rep.bytes !== before) cache.grew(key!, rep, before);
    let length = 0;
    for (const chunk of chunks) length += chunk.length;
    headers['content-type'] = JSON_TYPE;
    headers['content-length'] = length;
    if (coding !== 'identity') headers['content-encoding'] = coding;
    res.writeHead(200, headers);
    writeChunks(res, chunks);
  }

  stats(): (ResponseCacheStats & { enabled: true }) | { enabled: false } {
    return this.cache ? { enabled: true, ...this.cache.stats() } : { enabled: false };
  }
}

/** An answer as computed: its bytes, and the cards it is made of (`Answer.cards`). */
interface Computed {
  readonly rep: Representation;
  readonly cards: readonly string[] | null;
}

/** Request targets per doorkeeper generation (two are kept: about 4 MB at most). */
const DOORKEEPER_KEYS = 65_536;

/**
 * Which answers are worth a place in the cache: those asked for at least twice. A stream of
 * one-off requests (a client walking the whole catalogue) would otherwise replace the whole cache
 * with answers nobody asks for again, at the price of the memory they churn through (the
 * allocator keeps what the evicted answers freed). Keys are remembered by a seeded 32-bit hash in two generations, so the
 * doorkeeper's memory is bounded whatever the targets' length and a crawl of new targets does not
 * at once forget the warm ones; a collision only admits an answer early.
 */
class Doorkeeper {
  /** Keys seen in this generation and the one before: a full generation retires the older one. */
  private current = new Set<number>();
  private previous = new Set<number>();
  /** Per process, so a client cannot craft targets that collide with ones already seen. */
  private readonly seed = randomBytes(4).readUInt32LE(0);

  /** Whether `key` was seen before (in the last two generations); remembers it either way. */
  admit(key: string): boolean {
    const h = fnv1a(key, this.seed);
    const seen = this.current.has(h) || this.previous.has(h);
    if (!this.current.has(h)) {
      if (this.current.size >= DOORKEEPER_KEYS) {
        this.previous = this.current;
        this.current = new Set();
      }
      this.current.add(h);
    }
    return seen;
  }
}

/** FNV-1a over the string's UTF-16 code units, from a seeded offset basis. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The cache key of a GET: its path, its parameters as the route parsed them and what else the
 * answer depends on, such as the page-size cap of the caller's plan. Parsed, not as received:
 * parameters a lenient route ignores (a client's `&_=<n>` cache-buster), their order, the
 * spelling of a value and an explicit default would each make another entry for one answer, and
 * a client varying them would make every request a miss.
 */
export function requestCacheKey(
  req: IncomingMessage,
  dependsOn: string | number,
  parameters: object,
): string {
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const query = target.indexOf('?');
  return `${dependsOn} ${query < 0 ? target : target.slice(0, query)} ${canonicalJson(parameters)}`;
}

/**
 * A service's CachedResponder, for every module of the app: starts the data version source (a
 * database connection, for the watcher), sizes the cache from RESPONSE_CACHE_MAX_BYTES and reports
 * the cache in `/health` through `health` and in the metrics, with the data version. The tokens come from the app, which knows persistence.
 */
@Global()
@Module({})
export class ResponsesModule {
  static forService(tokens: {
    readonly versions: InjectionToken;
    readonly health: InjectionToken;
  }): DynamicModule {
    return {
      module: ResponsesModule,
      providers: [
        {
          provide: CachedResponder,
          inject: [tokens.versions, tokens.health, ServiceEnvironment, ServiceMetrics],
          useFactory: async (
            versions: DataVersionSource & { start?(): Promise<void> },
            health: { add(name: string, part: () => unknown): void },
            env: ServiceEnvironment,
            metrics: ServiceMetrics,
          ) => {
            await versions.start?.();
            const maxBytes = env.RESPONSE_CACHE_MAX_BYTES;
            const responder = new CachedResponder(
              maxBytes > 0 ? new ResponseCache(maxBytes) : null,
              versions,
            );
            health.add('responseCache', () => responder.stats());
            registerCacheMetrics(metrics, responder, versions);
            return responder;
          },
        },
      ],
      exports: [CachedResponder],
    };
  }
}

/**
 * What `/health` reports of the cache and the data version, as series read when scraped. The
 * hit ratio is the process's whole life; a dashboard computes recent ratios from the counters.
 */
function registerCacheMetrics(
  metrics: ServiceMetrics,
  responder: CachedResponder,
  versions: DataVersionSource,
): void {
  const stats = () => {
    const s = responder.stats();
    return s.enabled ? s : undefined;
  };
  const gauge = (name: string, help: string, read: (s: ResponseCacheStats) => number | null) =>
    metrics.gaugeAtScrape(name, help, [], () => {
      const s = stats();
      return s && [{ labels: {}, value: read(s) ?? Number.NaN }];
    });
  const counters: readonly [string, string, (s: ResponseCacheStats) => number][] = [
    ['hits', 'GET answers served from the response cache.', (s) => s.hits],
    ['misses', 'GET answers looked up in the response cache and computed.', (s) => s.misses],
    ['evictions', 'Answers evicted from the response cache for room.', (s) => s.evictions],
    ['carried', 'Answers kept across a new data version: it changed none of their cards.', (s) => s.carried],
    [
      'outdated',
      'Answers dropped at a new data version: it changed their cards, or they are not made of cards alone.',
      (s) => s.outdated,
    ],
  ];
  for (const [name, help, read] of counters)
    metrics.counterAtScrape(`response_cache_${name}_total`, help, () => {
      const s = stats();
      return s && read(s);
    });
  gauge(
    'response_cache_hit_ratio',
    'Hits over lookups since start (NaN before the first).',
    (s) => s.hitRatio,
  );
  gauge('response_cache_bytes', 'Bytes the response cache holds, compressed forms included.', (s) => s.bytes);
  gauge('response_cache_max_bytes', 'RESPONSE_CACHE_MAX_BYTES.', (s) => s.maxBytes);
  gauge('response_cache_entries', 'Answers the response cache holds.', (s) => s.entries);
  metrics.gaugeAtScrape(
    'data_version',
    'The data version this process answers under; NaN while it cannot know it (nothing is cached then).',
    [],
    () => [{ labels: {}, value: versions.current() ?? Number.NaN }],
  );
}

/**
 * Sends the chunks one after another and ends the response, without joining them first: a v1
 * answer is its cached head and this request's `_metadata`, and joining them copied the whole head
 * (2.7 MB for a 200-card batch) once per send. Corked, so the head, the chunks and the end leave
 * in one `writev`.
 */
function writeChunks(res: ServerResponse, chunks: readonly Buffer[]): void {
  // Empty chunks (an answer without a per-request tail) are left out: nothing to send, and a
  // shared empty buffer handed to a socket can come back with a null backing store.
  const parts = chunks.filter((chunk) => chunk.length > 0);
  if (parts.length <= 1) {
    res.end(parts[0]);
    return;
  }
  res.cork();
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
  res.end(parts[parts.length - 1]);
  res.uncork();
}

/**
 * The UTF-8 bytes of the strings one after another, written into one buffer of their exact size:
 * joining them into one string first would copy every byte once more. No part may end inside a
 * surrogate pair (JSON texts of whole values never do).
 */
function utf8Concat(parts: readonly string[]): Buffer {
  if (parts.length === 1) return Buffer.from(parts[0]!);
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) at += out.write(part, at);
  return out;
}
