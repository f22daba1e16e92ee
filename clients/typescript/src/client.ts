import { TcgError } from './errors.js';
import { defaultSleep, queryString, Transport, type RetryPolicy, type Sleep } from './transport.js';
import type {
  AlertListResponse,
  AlertResponse,
  BatchItem,
  BatchQuery,
  BatchResponse,
  CallOptions,
  Card,
  CardSet,
  CardsQuery,
  CardsResponse,
  CardsV2Query,
  CardsV2Response,
  CardV2,
  CardV2Query,
  CardV2Response,
  CardIdsResponse,
  CreateAlertBody,
  CreatedAlertResponse,
  DeliveryAttemptsResponse,
  Game,
  GamesResponse,
  IdKind,
  IdLookupResponse,
  SetsQuery,
  SetsResponse,
} from './types.js';

export interface TcgClientOptions {
  /** The gateway's address, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  readonly baseUrl: string;
  /** Sent as `x-api-key` on every request. */
  readonly apiKey: string;
  /** Deadline of each attempt, answer body included (default 30,000 ms). */
  readonly timeoutMs?: number;
  /** Attempts after the first one, where the call's kind allows them (default 2). */
  readonly retries?: number;
  /** Longest all the waits between one call's attempts may add up to (default 30,000 ms). */
  readonly maxRetryWaitMs?: number;
  /** First backoff step; it doubles at each retry (default 500 ms). */
  readonly retryBaseMs?: number;
  /** Longest one backoff step may be, `Retry-After` aside (default 8,000 ms). */
  readonly retryMaxDelayMs?: number;
  /** Longest answer body read, in bytes; a longer one is a `TcgResponseTooLargeError` (default no limit). */
  readonly maxResponseBytes?: number;
  /** The `fetch` to use (default the platform's). */
  readonly fetch?: typeof fetch;
  /** The wait between attempts (default a timer); for tests that record waits. */
  readonly sleep?: Sleep;
  /** Source of the backoff's jitter, in [0, 1) (default `Math.random`). */
  readonly random?: () => number;
}

/** Longest base URL accepted. */
const BASE_URL_MAX_LENGTH = 2048;

function positive(name: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min)
    throw new TypeError(`${name} must be a number of at least ${min}`);
  return value;
}

/**
 * A client of the card pricing API, through its gateway. Every method takes `CallOptions` last
 * (`signal`, `timeoutMs`, `retries`), and throws only `TcgError`s: `TcgApiError` and its
 * subclasses for an answer that is not 2xx, `TcgNetworkError`, `TcgTimeoutError`, `TcgAbortError`.
 */
export class TcgClient {
  readonly v1: V1;
  readonly v2: V2;
  private readonly transport: Transport;

  constructor(options: TcgClientOptions) {
    const baseUrl = String(options.baseUrl ?? '').replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/i.test(baseUrl) || baseUrl.length > BASE_URL_MAX_LENGTH)
      throw new TypeError('baseUrl must be an http(s) URL such as http://127.0.0.1:8080');
    if (typeof options.apiKey !== 'string' || options.apiKey === '')
      throw new TypeError('apiKey is required');
    this.transport = new Transport({
      baseUrl,
      apiKey: options.apiKey,
      timeoutMs: positive('timeoutMs', options.timeoutMs, 30_000, 1),
      retries: Math.floor(positive('retries', options.retries, 2)),
      maxRetryWaitMs: positive('maxRetryWaitMs', options.maxRetryWaitMs, 30_000),
      retryBaseMs: positive('retryBaseMs', options.retryBaseMs, 500),
      retryMaxDelayMs: positive('retryMaxDelayMs', options.retryMaxDelayMs, 8_000),
      maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes, Infinity, 1),
      // Called through the global at call time: a browser's fetch refuses another `this`.
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
    });
    this.v1 = new V1(this.transport);
    this.v2 = new V2(this.transport);
  }

  /**
   * Any route the typed methods do not cover yet, with the same key, deadline, retries and
   * errors: `path` from the API's root (`/v2/cards/…`), `query` serialised as the methods do.
   * `retry` defaults to `idempotent` for GET and `refused` otherwise.
   */
  request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    init: { query?: object; body?: unknown; retry?: RetryPolicy } & CallOptions = {},
  ): Promise<T> {
    const { query, body, retry, ...options } = init;
    return this.transport.request<T>({
      method,
      path: `${path}${queryString(query)}`,
      body,
      retry: retry ?? (method === 'GET' ? 'idempotent' : 'refused'),
      options,
    });
  }
}

const get = <T>(transport: Transport, path: string, query: object | undefined, options?: CallOptions) =>
  transport.request<T>({ method: 'GET', path: `${path}${queryString(query)}`, retry: 'idempotent', options });

/** v1 (stable): games, sets, cards, the batch lookup and price alerts. */
export class V1 {
  readonly games: V1Games;
  readonly sets: V1Sets;
  readonly cards: V1Cards;
  readonly alerts: V1Alerts;

  constructor(transport: Transport) {
    this.games = new V1Games(transport);
    this.sets = new V1Sets(transport);
    this.cards = new V1Cards(transport);
    this.alerts = new V1Alerts(transport);
  }
}

export class V1Games {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/games`: every game (unpaged). `params` is reserved: the route takes none today. */
  list(params: Record<string, never> = {}, options?: CallOptions): Promise<GamesResponse> {
    return get(this.transport, '/v1/games', params, options);
  }

  /** Every game, one at a time (one request: the list is not paged). */
  async *iterate(
    params: Record<string, never> = {},
    options?: CallOptions,
  ): AsyncGenerator<Game, void, undefined> {
    yield* (await this.list(params, options)).data;
  }
}

export class V1Sets {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/sets`: every set of `game` (unpaged: `meta` reports the whole list). */
  list(params: SetsQuery, options?: CallOptions): Promise<SetsResponse> {
    return get(this.transport, '/v1/sets', params, options);
  }

  /** Every set of the game, one at a time (one request: the list is not paged). */
  async *iterate(params: SetsQuery, options?: CallOptions): AsyncGenerator<CardSet, void, undefined> {
    yield* (await this.list(params, options)).data;
  }
}

export class V1Cards {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/cards`: one page of a search, a browse or a lookup. */
  list(params: CardsQuery = {}, options?: CallOptions): Promise<CardsResponse> {
    return get(this.transport, '/v1/cards', params, options);
  }

  /**
   * Every page from `params.offset` (default 0) on, `params.limit` cards at a time, while
   * `meta.hasMore`. The API refuses offsets past 10,000 (a 400): narrow to a `set`, or walk v2.
   */
  async *pages(
    params: CardsQuery = {},
    options?: CallOptions,
  ): AsyncGenerator<CardsResponse, void, undefined> {
    let offset = params.offset ?? 0;
    for (;;) {
      const page = await this.list({ ...params, offset }, options);
      yield page;
      if (!page.meta.hasMore || page.data.length === 0) return;
      offset += page.data.length;
    }
  }

  /** Every card of every page (see `pages`), one at a time. */
  async *iterate(params: CardsQuery = {}, options?: CallOptions): AsyncGenerator<Card, void, undefined> {
    for await (const page of this.pages(params, options)) yield* page.data;
  }

  /**
   * `POST /v1/cards`: up to 200 lookups at once (fewer on smaller plans), each with one
   * identifier; `params` sets how the cards are presented. Retried on 429 and 503 only.
   */
  batch(items: readonly BatchItem[], params: BatchQuery = {}, options?: CallOptions): Promise<BatchResponse> {
    return this.transport.request<BatchResponse>({
      method: 'POST',
      path: `/v1/cards${queryString(params)}`,
      body: items,
      retry: 'unanswered',
      options,
    });
  }
}

export class V1Alerts {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/alerts`: the answer carries the signing `secret`, shown only then. Retried on 429 only. */
  create(body: CreateAlertBody, options?: CallOptions): Promise<CreatedAlertResponse> {
    return this.transport.request<CreatedAlertResponse>({
      method: 'POST',
      path: '/v1/alerts',
      body,
      retry: 'refused',
      options,
    });
  }

  /** `GET /v1/alerts`: the key's alerts, oldest first. */
  list(options?: CallOptions): Promise<AlertListResponse> {
    return get(this.transport, '/v1/alerts', undefined, options);
  }

  /** `GET /v1/alerts/{id}`. */
  get(id: string, options?: CallOptions): Promise<AlertResponse> {
    return get(this.transport, `/v1/alerts/${encodeURIComponent(id)}`, undefined, options);
  }

  /** `DELETE /v1/alerts/{id}`: nothing more is sent for it. Retried on 429 only. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.request<undefined>({
      method: 'DELETE',
      path: `/v1/alerts/${encodeURIComponent(id)}`,
      retry: 'refused',
      options,
    });
  }

  /** `GET /v1/alerts/{id}/deliveries`: its last 50 delivery attempts, latest first. */
  deliveries(id: string, options?: CallOptions): Promise<DeliveryAttemptsResponse> {
    return get(this.transport, `/v1/alerts/${encodeURIComponent(id)}/deliveries`, undefined, options);
  }
}

/** v2 (beta): cards with raw and graded variants, priced per region, and the id crosswalk. */
export class V2 {
  readonly cards: V2Cards;
  readonly ids: V2Ids;

  constructor(transport: Transport) {
    this.cards = new V2Cards(transport);
    this.ids = new V2Ids(transport);
  }
}

export class V2Ids {
  constructor(private readonly transport: Transport) {}

  /** `GET /v2/ids/{kind}/{value}`: the cards and variants a marketplace id belongs to, by feed. */
  lookup(kind: IdKind, value: string, options?: CallOptions): Promise<IdLookupResponse> {
    const path = `/v2/ids/${encodeURIComponent(kind)}/${encodeURIComponent(value)}`;
    return get(this.transport, path, undefined, options);
  }
}

export class V2Cards {
  constructor(private readonly transport: Transport) {}

  /** `GET /v2/cards`: one page of a browse or a search, or a lookup. */
  list(params: CardsV2Query = {}, options?: CallOptions): Promise<CardsV2Response> {
    return get(this.transport, '/v2/cards', params, options);
  }

  /** `GET /v2/cards/{id}`: one card by UUID or legacy slug; a 404 when there is none. */
  get(id: string, params: CardV2Query = {}, options?: CallOptions): Promise<CardV2Response> {
    return get(this.transport, `/v2/cards/${encodeURIComponent(id)}`, params, options);
  }

  /** `GET /v2/cards/{id}/ids`: every marketplace id the feeds assert for the card and its variants. */
  ids(id: string, options?: CallOptions): Promise<CardIdsResponse> {
    return get(this.transport, `/v2/cards/${encodeURIComponent(id)}/ids`, undefined, options);
  }

  /** Every page from `params.cursor` (default the first) on, following `meta.cursor.next`. */
  async *pages(
    params: CardsV2Query = {},
    options?: CallOptions,
  ): AsyncGenerator<CardsV2Response, void, undefined> {
    let cursor = params.cursor;
    for (;;) {
      const page = await this.list({ ...params, cursor }, options);
      yield page;
      const next = page.meta.cursor.next;
      if (!page.meta.has_more || !next) return;
      // A cursor that does not move would walk the same page for ever.
      if (next === cursor)
        throw new TcgError('GET /v2/cards answered the cursor it was given as the next one');
      cursor = next;
    }
  }

  /** Every card of every page (see `pages`), one at a time. */
  async *iterate(params: CardsV2Query = {}, options?: CallOptions): AsyncGenerator<CardV2, void, undefined> {
    for await (const page of this.pages(params, options)) yield* page.data;
  }
}
