import type { IncomingMessage, ServerResponse } from 'node:http';

/** The browser origins that may call the API: any (`*`), or exactly these (lower-cased). */
export type CorsOrigins = '*' | ReadonlySet<string>;

/** `*`, or a comma-separated list of origins: what CORS_ORIGINS accepts. */
export const CORS_ORIGINS_FORMAT = /^\s*(\*|[^,\s]+(\s*,\s*[^,\s]+)*)\s*$/;

/**
 * CORS_ORIGINS read: `*`, or the origins, each exactly as a browser sends it in `Origin`
 * (`scheme://host[:port]`, lower case, no default port, no path), else an error naming it.
 */
export function parseCorsOrigins(value: string): CorsOrigins {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  const origins = trimmed.split(',').map((o) => o.trim());
  for (const origin of origins) {
    let canonical: string | undefined;
    try {
      const url = new URL(origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') canonical = url.origin;
    } catch {
      canonical = undefined;
    }
    if (canonical !== origin.toLowerCase())
      throw new Error(
        `CORS_ORIGINS: '${origin}' is not an origin as browsers send it (scheme://host[:port], no path, no default port${canonical ? `: '${canonical}'` : ''}), nor is the list '*'`,
      );
  }
  return new Set(origins.map((o) => o.toLowerCase()));
}

/**
 * Response headers a page may read besides the CORS-safelisted ones: the usage headers, paging
 * (`Link`, `X-Total-Count`), the request id, and the validator and data version of an answer.
 */
const EXPOSED_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Link',
  'X-Total-Count',
  'X-Request-Id',
  'X-Data-Version',
  'ETag',
].join(', ');

/**
 * What a page may send: the API's methods (GET, the batch lookup's and an alert's POST, an alert's
 * DELETE) and the headers it reads.
 */
const ALLOWED_METHODS = 'GET, HEAD, POST, DELETE';
const ALLOWED_HEADERS = 'X-Api-Key, Content-Type, If-None-Match, X-Request-Id';
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * Cross-origin access, decided before anything else answers the request, so that errors (401,
 * 429, 4xx of the request guard) reach the page that asked too: sets the CORS headers of the
 * answer to `req`, and says whether it is a preflight (`OPTIONS` with
 * `Access-Control-Request-Method`), which `answerPreflight` answers without a key or a quota, as
 * browsers send preflights without credentials. An origin outside the list gets no CORS headers,
 * so its browser withholds the answer.
 */
export function applyCors(
  req: IncomingMessage,
  res: ServerResponse,
  origins: CorsOrigins,
): 'preflight' | 'request' {
  const origin = req.headers.origin;
  let allowed: boolean;
  if (origins === '*') {
    allowed = true;
    res.setHeader('Access-Control-Allow-Origin', '*');
  } else {
    // The answer depends on the Origin header: caches must key on it.
    res.setHeader('Vary', 'Origin');
    allowed = origin !== undefined && origins.has(origin.toLowerCase());
    if (allowed) res.setHeader('Access-Control-Allow-Origin', origin!);
  }
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) {
    if (allowed) res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    return 'request';
  }
  if (allowed) {
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
  }
  return 'preflight';
}

/**
 * The browser pages (`/`, `/docs`) and their assets (`/assets/…`), matched as the router does
 * (exactly, case-sensitively). They get no CORS header whatever CORS_ORIGINS says: the explorer
 * page holds the demo key of `npm start`, and a page of another origin must not read it.
 */
export function isPagePath(url: string | undefined): boolean {
  const path = (url ?? '').split('?', 1)[0];
  return path === '/' || path === '/docs' || path!.startsWith('/assets/');
}

/** A preflight's answer: 204 with the headers `applyCors` set. */
export function answerPreflight(res: ServerResponse): void {
  res.writeHead(204);
  res.end();
}

/** A service's `Vary` joined with the one CORS set on the client response, if any. */
export function joinVary(service: string | string[] | number | undefined, cors: unknown): string | undefined {
  const parts = [service, cors]
    .flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [String(v)]))
    .filter((v) => v !== '');
  return parts.length === 0 ? undefined : parts.join(', ');
}
