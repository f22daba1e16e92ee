import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  encodeUsage,
  INTERNAL_HEADERS,
  observationOf,
  UNMATCHED_ROUTE,
  type UsageReport,
} from '@tcg/http-service';
import { PLANS } from '@tcg/domain';
import { AccessService, type BeforeCharge, type Refusal } from '../access/access.service';
import { BadKeyDelay } from '../access/bad-key-delay';
import { rateLimitHeaders } from '../access/rate-limit-headers';
import { sendError, sendInternalError } from '../common/error-shape';
import { GatewayMetrics } from '../common/gateway-metrics';
import { type LingerLimits, lingerLimits } from '../common/lingering-close';
import { type BodyFraming, mayHaveBody, readBody, tooLarge } from '../common/request-body';
import type { GuardedRequest } from '../common/request-guard';
import type { ApiVersion, RequestTarget } from '../common/request-target';
import { Environment } from '../config/environment';
import { Limits } from '../limits/limits.module';
import { DownloadSlots } from './download-slots';
import { upstreamRequestHeaders } from './forwarded-headers';
import { KeyConcurrency } from './key-concurrency';
import { routeTemplate } from './route-template';
import { UpstreamClient, UpstreamFailure, type UpstreamOptions } from './upstream-client';

/** Seconds a client should wait before retrying after a 503 or 504 of the gateway's own. */
const RETRY_AFTER_SECONDS = 1;

/** The gateway's own answer when a service gives none: status, code, and what the service did. */
const FAILURE_ANSWERS = {
  timeout: [504, 'GATEWAY_TIMEOUT', 'did not answer in time'],
  busy: [503, 'SERVICE_UNAVAILABLE', 'has too many requests in progress'],
  unavailable: [503, 'SERVICE_UNAVAILABLE', 'is unavailable'],
} as const;

/** Bulk file downloads (api-v1's `GET /v1/bulk/{game}/{format}` and a day's archived files): the download pool and limits. */
const DOWNLOAD_ROUTES: ReadonlySet<string> = new Set([
  '/v1/bulk/:game/:format',
  '/v1/bulk/archive/:date/:game/:format',
]);

/** The MCP endpoint: its path, route label and the error shape of its refusals (v1's). */
export const MCP_PATH = '/mcp';

/**
 * What the MCP service is sent beyond the API services' allow-list: the caller's key, checked
 * here, under which it makes each tool's API request back through this gateway (the internal
 * credential vouches that it came from here), and the protocol version the MCP client negotiated.
 */
const MCP_FORWARDED_HEADERS = ['x-api-key', 'mcp-protocol-version'] as const;

/**
 * Admits a request (key, quotas), then sends it to the service its version names and streams the
 * answer back, adding the usage headers of v2. The route, the cost and the forwarded path all come
 * from the one target the request guard accepted. Bodies are read whole (up to the cap) before
 * dispatch, so a slow client never holds a pooled upstream socket and every body goes framed.
 */
@Injectable()
export class ProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger('Proxy');
  private readonly upstreams: Record<ApiVersion, UpstreamClient>;
  /** api-v1 again, for bulk downloads only: a small pool of its own (DOWNLOAD_MAX_SOCKETS). */
  private readonly downloads: UpstreamClient;
  private readonly requestsPerKey = new KeyConcurrency();
  private readonly downloadsPerKey = new KeyConcurrency();
  /** The MCP service (MCP_URL), when there is one. */
  private readonly mcp: UpstreamClient | undefined;
  /** A key's `/mcp` requests in progress, apart from its API requests (which its tool calls are). */
  private readonly mcpPerKey = new KeyConcurrency();
  /** The download pool's connections, shared out between keys (DOWNLOAD_SOCKETS_PER_KEY, _RESERVED_SOCKETS). */
  private readonly downloadSlots: DownloadSlots;
  private readonly docsUrl: string;
  /** How a refusal with the body still on the wire closes the connection (see endLastAnswer). */
  readonly linger: LingerLimits;
  /** Holds the answers that say a key is bad (AUTH_FAILURE_DELAY_MS and the two after it). */
  private readonly badKeyDelay: BadKeyDelay;

  constructor(
    private readonly access: AccessService,
    private readonly metrics: GatewayMetrics,
    private readonly env: Environment,
    private readonly limits: Limits,
  ) {
    this.docsUrl = env.DOCS_URL;
    this.downloadSlots = new DownloadSlots(
      env.DOWNLOAD_MAX_SOCKETS,
      env.DOWNLOAD_SOCKETS_PER_KEY,
      env.DOWNLOAD_RESERVED_SOCKETS,
    );
    this.linger = lingerLimits(env.MAX_BODY_BYTES, env.SERVER_KEEP_ALIVE_TIMEOUT_MS);
    this.badKeyDelay = new BadKeyDelay({
      delayMs: env.AUTH_FAILURE_DELAY_MS,
      maxWaiting: env.AUTH_FAILURE_MAX_DELAYED,
      perAddress: env.AUTH_FAILURE_ANSWERS_PER_ADDRESS,
      onOverflow: () => metrics.badKeyAnswerUndelayed(),
    });
    metrics.badKeyAnswersWaiting(() => this.badKeyDelay.waiting);
    const upstream = (name: string, url: string, options: Partial<UpstreamOptions> = {}) =>
      new UpstreamClient({
        name,
        url: new URL(url),
        headersTimeoutMs: env.UPSTREAM_TIMEOUT_MS,
        bodyTimeoutMs: env.UPSTREAM_BODY_TIMEOUT_MS,
        maxSockets: env.UPSTREAM_MAX_SOCKETS,
        maxInFlight: env.UPSTREAM_MAX_IN_FLIGHT,
        freeSocketTimeoutMs: env.UPSTREAM_FREE_SOCKET_TIMEOUT_MS,
        writeIdleTimeoutMs: env.WRITE_IDLE_TIMEOUT_MS,
        onResponse: (status, seconds) => metrics.upstreamResponse(name, status, seconds),
        onCut: (reason) => metrics.responseCut(name, reason),
        ...options,
      });
    this.upstreams = {
      v1: upstream('api-v1', env.API_V1_URL),
      v2: upstream('api-v2', env.API_V2_URL),
    };
    // No queue: a download waits for nothing, it is admitted onto a socket or refused with a 503.
    this.downloads = upstream('api-v1-downloads', env.API_V1_URL, {
      maxSockets: env.DOWNLOAD_MAX_SOCKETS,
      maxInFlight: env.DOWNLOAD_MAX_SOCKETS,
      downloads: {
        minBytesPerSecond: env.DOWNLOAD_MIN_BYTES_PER_SECOND,
        graceMs: env.DOWNLOAD_GRACE_MS,
        maxDurationMs: env.DOWNLOAD_MAX_DURATION_MS,
      },
      onDownload: (delta) => metrics.downloadsInProgress(delta),
    });
    this.mcp = env.MCP_URL
      ? upstream('mcp-server', env.MCP_URL, { headersTimeoutMs: env.MCP_UPSTREAM_TIMEOUT_MS })
      : undefined;
  }

  /**
   * `/mcp`, the MCP server's streamable HTTP transport: the key is authenticated here like any
   * other (401, the failure throttle and the bad-key delay alike) but not charged. Each tool call
   * is one API request the MCP service makes back through this gateway under the same key, charged
   * then; charging the transport request too would count each tool call twice, and would charge
   * the protocol's own messages (initialize, tools/list). Those cost nothing, and a key's `/mcp`
   * requests in progress are capped at its plan's requests at once, counted apart from its API
   * requests so that a tool call's own request is never refused for its `/mcp` request's place.
   */
  serveMcp(req: IncomingMessage, res: ServerResponse, guarded: GuardedRequest): void {
    this.proxyMcp(req, res, guarded.framing).catch((error: unknown) =>
      sendInternalError(res, MCP_PATH, this.docsUrl, this.logger, error),
    );
  }

  private async proxyMcp(req: IncomingMessage, res: ServerResponse, framing: BodyFraming): Promise<void> {
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    const observation = observationOf(req);
    if (observation) observation.route = MCP_PATH;
    const mcp = this.mcp;
    if (!mcp) {
      sendError(
        res,
        MCP_PATH,
        404,
        'NOT_FOUND',
        'This gateway has no MCP server (MCP_URL is unset).',
        this.docsUrl,
      );
      return;
    }
    const places: (() => void)[] = [];
    const giveBack = () => places.splice(0).forEach((give) => give());
    const admission = await this.access.authenticate(req, async (key) => {
      const cap = this.env.KEY_REQUESTS_AT_ONCE ?? PLANS[key.plan].concurrentRequests;
      const place = this.mcpPerKey.take(key.id, cap);
      if (!place) return this.tooManyAtOnce('MCP requests', cap, key.plan);
      places.push(place);
      return undefined;
    });
    if (admission.admitted) {
      res.once('close', giveBack);
      if (req.socket.destroyed) giveBack();
    } else {
      giveBack();
      this.metrics.admission(admission, 'mcp');
      if (admission.retryAfterSeconds !== undefined)
        res.setHeader('Retry-After', String(admission.retryAfterSeconds));
      this.refuse(req, res, framing, MCP_PATH, admission);
      return;
    }
    if (observation) {
      observation.keyId = admission.key.id;
      observation.cost = 0;
    }

    let body: Buffer | undefined;
    if (framing.kind === 'body') {
      body = await this.wholeBody(req, res, MCP_PATH);
      if (body === undefined) return;
    }
    const headers = upstreamRequestHeaders(req.headers);
    for (const name of MCP_FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    headers['x-request-id'] = requestId;
    headers[INTERNAL_HEADERS.credential] = this.env.INTERNAL_TOKEN;
    headers[INTERNAL_HEADERS.keyId] = admission.key.id;
    if (!mayHaveBody(req.method)) delete headers['content-type'];
    if (req.socket.destroyed) return;
    mcp.forward({ method: req.method ?? 'GET', path: MCP_PATH, headers, body }, res, (failure) =>
      this.answerFailure(res, MCP_PATH, mcp.options.name, failure, requestId),
    );
  }

  /**
   * The entry of the gateway's request listener, for every `/v1` and `/v2` request the guard let
   * through. What escapes `proxy` is logged and answered 500, in the version's shape.
   */
  serve(req: IncomingMessage, res: ServerResponse, guarded: GuardedRequest): void {
    this.proxy(req, res, guarded.target, guarded.framing).catch((error: unknown) =>
      sendInternalError(res, guarded.target.path, this.docsUrl, this.logger, error),
    );
  }

  private async proxy(
    req: IncomingMessage,
    res: ServerResponse,
    target: RequestTarget,
    framing: BodyFraming,
  ): Promise<void> {
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    const version = target.version!;
    const shapePath = version === 'v2' ? '/v2' : '/v1';
    const route = routeTemplate(target);
    const observation = observationOf(req);
    if (observation) observation.route = route ?? UNMATCHED_ROUTE;

    const download = route !== undefined && DOWNLOAD_ROUTES.has(route);
    const places: (() => void)[] = [];
    const giveBack = () => places.splice(0).forEach((give) => give());
    const admission = await this.access.admit(req, target, this.takePlaces(download, places));
    if (admission.admitted) {
      res.once('close', giveBack);
      // The client left while it was admitted: its close has been and gone.
      if (req.socket.destroyed) giveBack();
    } else giveBack();
    this.metrics.admission(admission, version);
    if (!admission.admitted) {
      if (admission.retryAfterSeconds !== undefined)
        res.setHeader('Retry-After', String(admission.retryAfterSeconds));
      if (version === 'v2' && admission.usage) setRateLimitHeaders(res, admission.usage);
      this.refuse(req, res, framing, shapePath, admission);
      return;
    }
    if (version === 'v2') setRateLimitHeaders(res, admission.usage);
    if (observation) {
      observation.keyId = admission.key.id;
      observation.cost = admission.cost;
    }

    let body: Buffer | undefined;
    if (framing.kind === 'body') {
      body = await this.wholeBody(req, res, shapePath);
      if (body === undefined) return;
    }

    const headers = upstreamRequestHeaders(req.headers);
    headers['x-request-id'] = requestId;
    headers[INTERNAL_HEADERS.credential] = this.env.INTERNAL_TOKEN;
    headers[INTERNAL_HEADERS.usage] = encodeUsage(admission.usage);
    headers[INTERNAL_HEADERS.keyId] = admission.key.id;
    headers[INTERNAL_HEADERS.cost] = String(admission.cost);
    // undici frames the body (Content-Length, 0 for a POST without one); other methods carry none.
    if (!mayHaveBody(req.method)) delete headers['content-type'];

    if (req.socket.destroyed) return; // the client left while it was admitted
    const upstream = download ? this.downloads : this.upstreams[version];
    upstream.forward({ method: req.method ?? 'GET', path: target.raw, headers, body }, res, (failure) =>
      this.answerFailure(res, shapePath, upstream.options.name, failure, requestId),
    );
  }

  /**
   * A request's body read whole, up to MAX_BODY_BYTES; undefined when the request ends here: the
   * client went away mid-body, or the body is too large, answered 413 in `shapePath`'s error shape
   * (the rest of the body stays unread).
   */
  private async wholeBody(
    req: IncomingMessage,
    res: ServerResponse,
    shapePath: string,
  ): Promise<Buffer | undefined> {
    const read = await readBody(req, this.env.MAX_BODY_BYTES).catch(() => undefined);
    if (read === undefined) return undefined; // the client went away mid-body
    if (read === 'too-large') {
      const { status, code, message } = tooLarge(this.env.MAX_BODY_BYTES);
      sendError(res, shapePath, status, code, message, this.docsUrl, { req, linger: this.linger });
      return undefined;
    }
    return read;
  }

  /**
   * Answers a refusal in `shapePath`'s error shape, its headers already set: at once, or held when
   * it says the key is bad (BadKeyDelay). A body still on the wire stays unread and the answer
   * closes the connection (see endLastAnswer); without one, it does when the delay sends it early
   * (too many answers held).
   */
  private refuse(
    req: IncomingMessage,
    res: ServerResponse,
    framing: BodyFraming,
    shapePath: string,
    refusal: Refusal,
  ): void {
    const { status, code, message } = refusal;
    const answer = (close: boolean): void => {
      const last = framing.kind === 'body' ? { req, linger: this.linger } : undefined;
      if (close && !last) res.setHeader('connection', 'close');
      sendError(res, shapePath, status, code, message, this.docsUrl, last);
    };
    if (refusal.badKeyFrom !== undefined) this.badKeyDelay.hold(res, answer, req.socket, refusal.badKeyFrom);
    else answer(false);
  }

  /**
   * Takes the key's place among its requests in progress (and its downloads', on this instance and
   * then across every instance), before any quota unit is charged: a key over its plan's
   * concurrency is refused without being charged. What is taken is in `places`, given back by the
   * caller whatever the answer.
   */
  private takePlaces(download: boolean, places: (() => void)[]): BeforeCharge {
    return async (key) => {
      const plan = PLANS[key.plan];
      // KEY_REQUESTS_AT_ONCE: one cap for every plan instead of each plan's own.
      const cap = this.env.KEY_REQUESTS_AT_ONCE ?? plan.concurrentRequests;
      const request = this.requestsPerKey.take(key.id, cap);
      if (!request) return this.tooManyAtOnce('requests', cap, key.plan);
      places.push(request);
      if (!download) return undefined;
      const file = this.downloadsPerKey.take(key.id, plan.concurrentDownloads);
      if (!file) return this.tooManyAtOnce('downloads', plan.concurrentDownloads, key.plan);
      places.push(file);
      const slot = this.downloadSlots.take(key.id);
      if (typeof slot !== 'function') return this.noDownloadSlot(slot);
      places.push(slot);
      // The key's downloads across every instance, counted once this one's own checks passed.
      const lease = await this.limits.downloads.take(key.id, plan.concurrentDownloads);
      if (!lease) return this.tooManyAtOnce('downloads', plan.concurrentDownloads, key.plan);
      places.push(() => lease.release());
      return undefined;
    };
  }

  private tooManyAtOnce(
    what: 'requests' | 'downloads' | 'MCP requests',
    limit: number,
    plan: string,
  ): Refusal {
    this.metrics.concurrencyRefusal(what === 'MCP requests' ? 'mcp' : what);
    return {
      admitted: false,
      status: 429,
      // The contract's code for a rate limit (the auth-failure throttle uses it too): clients
      // already back off on it by Retry-After; the message says which limit.
      code: 'RATE_LIMIT_EXCEEDED',
      message: `The ${plan} plan allows ${limit} ${what} in progress at once per key; wait for one to finish.`,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    };
  }

  /**
   * A download this instance's share-out of its download connections refuses: the key's own share
   * or the reserve for other keys (429, the key waits for one of its own), or every connection
   * taken (503, as when the pool itself is full).
   */
  private noDownloadSlot(reason: 'key_share' | 'reserved' | 'full'): Refusal {
    if (reason === 'full') {
      // Counted as the download pool's own refusal would be.
      this.metrics.upstreamFailure('api-v1-downloads', { kind: 'busy' });
      return {
        admitted: false,
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'The api-v1-downloads service has too many requests in progress.',
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      };
    }
    this.metrics.concurrencyRefusal('downloads');
    const { perKey, reserved } = this.downloadSlots;
    return {
      admitted: false,
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message:
        `Download connections are shared between keys: one key may have ${perKey} in progress through this ` +
        `gateway, and the last ${reserved} are kept for keys with none; wait for one of yours to finish.`,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    };
  }

  private answerFailure(
    res: ServerResponse,
    shapePath: string,
    name: string,
    failure: UpstreamFailure,
    requestId: string,
  ): void {
    this.metrics.upstreamFailure(name, failure);
    this.logger.warn({ msg: `upstream ${failure.kind}`, upstream: name, requestId, ...failure });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const [status, code, what] = FAILURE_ANSWERS[failure.kind];
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    sendError(res, shapePath, status, code, `The ${name} service ${what}.`, this.docsUrl);
  }

  async onApplicationShutdown(): Promise<void> {
    const all = [...Object.values(this.upstreams), this.downloads, ...(this.mcp ? [this.mcp] : [])];
    await Promise.all(all.map((upstream) => upstream.close()));
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The client's `x-request-id` when it is a plausible id, else a fresh one. */
function requestIdOf(req: IncomingMessage): string {
  const v = req.headers['x-request-id'];
  const s = Array.isArray(v) ? v[0] : v;
  return s && REQUEST_ID.test(s) ? s : randomUUID();
}

function setRateLimitHeaders(res: ServerResponse, usage: UsageReport): void {
  const headers = rateLimitHeaders(usage);
  for (const name in headers) res.setHeader(name, headers[name]!);
}
