import { DynamicModule, Global, InjectionToken, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataVersionSource } from '@tcg/domain';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { negotiateCoding } from './content-coding';
import { entityTag, ifNoneMatchHits } from './entity-tag';
import { CompressionPolicy, Representation } from './representation';
import { ResponseCache, ResponseCacheStats } from './response-cache';

/** What a handler answers: a JSON body and its headers besides the caching ones. */
export interface Answer {
  readonly body: object;
  readonly headers?: Readonly<Record<string, string>>;
}

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
 * Compression effort: quick for an answer's first sends (brotli 1 and gzip 1 encode a median v1
 * lookup in about a third of a millisecond), thorough once it is asked for again (brotli 5 and
 * gzip 6: about 0.9 ms, and a tenth smaller than gzip 6 for brotli). An answer that is never
 * cached (a POST) is sent once: quick only.
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
  private readonly inflight = new Map<string, Promise<Representation>>();

  constructor(
    private readonly cache: ResponseCache | null,
    private readonly versions: DataVersionSource,
  ) {
    // An answer of an older version can never be served (ResponseCache checks the version); this
    // only gives its memory back at once.
    versions.onChange(() => cache?.clear());
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
    const build = async (policy: CompressionPolicy): Promise<Representation> => {
      const answer = await compute();
      let body = answer.body as Record<string, unknown>;
      if (perRequest !== undefined) {
        const { [perRequest.name]: _ignored, ...rest } = body;
        body = rest;
      }
      let text = JSON.stringify(body);
      if (perRequest !== undefined) text = text.slice(0, -1); // the tail closes the object
      return new Representation(Buffer.from(text), answer.headers ?? {}, perRequest !== undefined, policy);
    };

    let rep: Representation | undefined;
    const cache = key !== null && version !== null ? this.cache : null;
    if (cache) rep = cache.get(key!, version!);
    if (rep === undefined) {
      if (cache) {
        const flight = `${version}\n${key}`;
        let pending = this.inflight.get(flight);
        if (pending === undefined) {
          pending = build(COMPRESSION).finally(() => this.inflight.delete(flight));
          this.inflight.set(flight, pending);
        }
        rep = await pending;
        // Kept only if no newer version was announced while it was computed.
        if (this.versions.current() === version) cache.set(key!, version!, rep);
      } else {
        rep = await build(key === null ? ONCE : COMPRESSION);
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
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    headers['content-type'] = JSON_TYPE;
    headers['content-length'] = bytes.length;
    if (coding !== 'identity') headers['content-encoding'] = coding;
    res.writeHead(200, headers);
    res.end(bytes);
  }

  stats(): (ResponseCacheStats & { enabled: true }) | { enabled: false } {
    return this.cache ? { enabled: true, ...this.cache.stats() } : { enabled: false };
  }
}

/**
 * The cache key of a GET: the request target as received (its query string in the client's order:
 * reordered parameters are another entry, never a wrong answer) and what else the answer depends
 * on, such as the page-size cap of the caller's plan.
 */
export function requestCacheKey(req: IncomingMessage, dependsOn: string | number): string {
  return `${dependsOn} ${(req as { originalUrl?: string }).originalUrl ?? req.url}`;
}

/**
 * A service's CachedResponder, for every module of the app: starts the data version source (a
 * database connection, for the watcher), sizes the cache from RESPONSE_CACHE_MAX_BYTES and reports
 * the cache in `/health` through `health`. The tokens come from the app, which knows persistence.
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
          inject: [tokens.versions, tokens.health, ConfigService],
          useFactory: async (
            versions: DataVersionSource & { start?(): Promise<void> },
            health: { add(name: string, part: () => unknown): void },
            config: ConfigService,
          ) => {
            await versions.start?.();
            const maxBytes = config.getOrThrow<number>('RESPONSE_CACHE_MAX_BYTES');
            const responder = new CachedResponder(
              maxBytes > 0 ? new ResponseCache(maxBytes) : null,
              versions,
            );
            health.add('responseCache', () => responder.stats());
            return responder;
          },
        },
      ],
      exports: [CachedResponder],
    };
  }
}
