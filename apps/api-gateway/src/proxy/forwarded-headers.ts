import { INTERNAL_HEADER_PREFIX } from '@tcg/http-service';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/**
 * The client headers a service may see. An allow-list, because the services read none of the
 * others and each one forwarded is a leak (the clear-text `x-api-key`, `cookie`,
 * `authorization`) or a spoof (`forwarded`, `x-forwarded-*`, `x-tcg-*`). Content negotiation and
 * conditional requests stay; framing (`content-length`) and `x-request-id` are set by the gateway.
 */
export const FORWARDED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'if-modified-since',
  'if-none-match',
  // One byte range of a download, so a cut one resumes (api-v1's bulk files).
  'if-range',
  'range',
  'user-agent',
]);

/**
 * Service response headers that never reach the client: hop-by-hop ones (RFC 9110 §7.6.1), the
 * internal ones, and those the gateway owns for every response (`x-request-id`, the usage headers).
 */
const DROPPED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'set-cookie',
  'x-powered-by',
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
]);

export function upstreamRequestHeaders(client: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = client[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

export function clientResponseHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  const connection = upstream['connection'];
  // `keep-alive` and `close` nominate nothing beyond what is dropped anyway.
  const nominated =
    connection === undefined || connection === 'keep-alive' || connection === 'close'
      ? undefined
      : new Set(connection.split(',').map((t) => t.trim().toLowerCase()));
  const headers: OutgoingHttpHeaders = {};
  for (const name in upstream) {
    const value = upstream[name];
    if (
      value === undefined ||
      DROPPED_RESPONSE_HEADERS.has(name) ||
      nominated?.has(name) ||
      name.startsWith(INTERNAL_HEADER_PREFIX) ||
      // Cross-origin access is the gateway's policy (CORS_ORIGINS), never a service's.
      name.startsWith('access-control-')
    )
      continue;
    headers[name] = value;
  }
  return headers;
}
