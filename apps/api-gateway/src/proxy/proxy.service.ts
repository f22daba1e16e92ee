import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { encodeUsage, INTERNAL_HEADER_PREFIX, INTERNAL_HEADERS } from '@tcg/domain';
import { randomUUID } from 'node:crypto';
import { Agent, IncomingMessage, request, ServerResponse } from 'node:http';
import { AccessService } from '../access/access.service';
import { rateLimitHeaders } from '../access/rate-limit-headers';
import { sendError } from '../common/error-shape';

/** Hop-by-hop headers (RFC 9110 §7.6.1) are never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

export interface Upstream {
  readonly name: string;
  readonly url: URL;
}

/**
 * Admits a request (key, quotas), then streams it to an upstream service over pooled keep-alive
 * connections and streams the answer back untouched (status, headers, body), adding the usage
 * headers of v2. A refused connection is a 503 and a slow upstream a 504, in the error shape of
 * the version the path names. Client-sent `x-tcg-*` headers never reach a service.
 */
@Injectable()
export class ProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger('Proxy');
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  private readonly timeoutMs: number;
  private readonly docsUrl: string;
  private readonly credential: string;

  constructor(
    private readonly access: AccessService,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.timeoutMs = config.getOrThrow<number>('UPSTREAM_TIMEOUT_MS');
    this.docsUrl = config.getOrThrow<string>('DOCS_URL');
    this.credential = config.getOrThrow<string>('INTERNAL_TOKEN');
  }

  async handle(req: IncomingMessage, res: ServerResponse, upstream: Upstream): Promise<void> {
    const path = req.url ?? '/';
    const requestId = headerValue(req.headers['x-request-id']) ?? randomUUID();
    res.setHeader('x-request-id', requestId);
    const url = new URL(path, 'http://gateway');
    const isV2 = url.pathname === '/v2' || url.pathname.startsWith('/v2/');

    const admission = await this.access.admit(req, url);
    if (!admission.admitted) {
      if (admission.retryAfterSeconds !== undefined)
        res.setHeader('Retry-After', String(admission.retryAfterSeconds));
      if (isV2 && admission.usage)
        for (const [k, v] of Object.entries(rateLimitHeaders(admission.usage))) res.setHeader(k, v);
      req.resume(); // drain an unread body so the connection can be reused
      sendError(res, url.pathname, admission.status, admission.code, admission.message, this.docsUrl);
      return;
    }
    if (isV2) for (const [k, v] of Object.entries(rateLimitHeaders(admission.usage))) res.setHeader(k, v);

    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && !name.startsWith(INTERNAL_HEADER_PREFIX))
        headers[name] = value;
    }
    headers['x-request-id'] = requestId;
    headers[INTERNAL_HEADERS.credential] = this.credential;
    headers[INTERNAL_HEADERS.usage] = encodeUsage(admission.usage);

    const upstreamReq = request({
      agent: this.agent,
      host: upstream.url.hostname,
      port: upstream.url.port,
      method: req.method,
      path,
      headers,
      timeout: this.timeoutMs,
    });
    upstreamReq.on('response', (upstreamRes: IncomingMessage) => {
      res.statusCode = upstreamRes.statusCode ?? 502;
      for (const [name, value] of Object.entries(upstreamRes.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
      }
      upstreamRes.pipe(res);
    });
    upstreamReq.on('timeout', () => {
      upstreamReq.destroy();
      this.logger.warn({ msg: 'upstream timeout', upstream: upstream.name, path, requestId });
      sendError(
        res,
        path,
        504,
        'GATEWAY_TIMEOUT',
        `The ${upstream.name} service did not answer in time.`,
        this.docsUrl,
      );
    });
    upstreamReq.on('error', (error: Error) => {
      if (res.writableEnded) return;
      this.logger.warn({
        msg: 'upstream unavailable',
        upstream: upstream.name,
        path,
        requestId,
        error: error.message,
      });
      sendError(
        res,
        path,
        503,
        'SERVICE_UNAVAILABLE',
        `The ${upstream.name} service is unavailable.`,
        this.docsUrl,
      );
    });
    req.pipe(upstreamReq);
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return s && /^[\w.:-]{1,128}$/.test(s) ? s : undefined;
}
