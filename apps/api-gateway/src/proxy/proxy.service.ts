import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { Agent, IncomingMessage, request, ServerResponse } from 'node:http';
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
 * Streams a request to an upstream service over pooled keep-alive connections and streams the
 * answer back untouched (status, headers, body). A refused connection is a 503 and a slow
 * upstream a 504, in the error shape of the version the path names.
 */
@Injectable()
export class ProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger('Proxy');
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  private readonly timeoutMs: number;
  private readonly docsUrl: string;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.timeoutMs = config.getOrThrow<number>('UPSTREAM_TIMEOUT_MS');
    this.docsUrl = config.getOrThrow<string>('DOCS_URL');
  }

  forward(req: IncomingMessage, res: ServerResponse, upstream: Upstream): void {
    const path = req.url ?? '/';
    const requestId = headerValue(req.headers['x-request-id']) ?? randomUUID();
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    headers['x-request-id'] = requestId;
    res.setHeader('x-request-id', requestId);

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
      sendError(res, path, 504, 'GATEWAY_TIMEOUT', `The ${upstream.name} service did not answer in time.`, this.docsUrl);
    });
    upstreamReq.on('error', (error: Error) => {
      if (res.writableEnded) return;
      this.logger.warn({ msg: 'upstream unavailable', upstream: upstream.name, path, requestId, error: error.message });
      sendError(res, path, 503, 'SERVICE_UNAVAILABLE', `The ${upstream.name} service is unavailable.`, this.docsUrl);
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
