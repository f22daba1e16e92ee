import { observeRequest, type RequestObserver, UNMATCHED_ROUTE } from '@tcg/http-service';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { answerPreflight, applyCors, type CorsOrigins, isPagePath } from './common/cors';
import { guardRequest, rememberGuarded, type RequestGuardOptions } from './common/request-guard';
import type { RequestTarget } from './common/request-target';
import type { ProxyService } from './proxy/proxy.service';
import { routeTemplate } from './proxy/route-template';

/** The `version` label of what is not under `/v1` or `/v2` (health, the OpenAPI documents). */
const NO_VERSION = 'none';

/**
 * Whether Express would route this guarded target to the proxy (ProxyController: `v1`, `v1/*path`
 * and the same for v2, matched case-sensitively and strictly), decided without Express. Only for
 * paths with no percent-escapes: Express decodes the wildcard's segments and answers 400 when one
 * does not decode, so those paths keep going through Express to get exactly its answer.
 */
export function servedByProxyRoute(target: RequestTarget): boolean {
  const { version, path } = target;
  if (version === undefined || path.includes('%')) return false;
  // The guard's version is the exact-case prefix followed by the end or `/`; `*path` needs at
  // least one character after that `/`.
  return path.length !== version.length + 2;
}

/**
 * Puts the gateway's own request listener in front of Express's on `server`. Every request is
 * observed first (metrics and access line, see RequestObserver), then the CORS headers are set
 * (not on the pages: see isPagePath),
 * then the request guard runs for every request, as it would as Express's first
 * middleware; a preflight that passes it is answered, and a proxied request then
 * goes straight to the proxy, without Express's and Nest's per-request layers (the proxy reads and
 * writes plain node requests and responses, and answers its own errors). Health, unknown paths and
 * anything `servedByProxyRoute` leaves out go on to Express with the guard's decision.
 */
export function serveProxyBeforeExpress(
  server: Server,
  express: RequestListener,
  proxy: ProxyService,
  guard: RequestGuardOptions,
  cors: CorsOrigins,
  observer: RequestObserver,
): void {
  const before = server.listenerCount('request');
  server.removeListener('request', express);
  if (server.listenerCount('request') !== before - 1)
    throw new Error("the HTTP server's request listener is not the Express app");
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Every request is counted and logged, refused ones included; the proxy adds route and caller.
    const observation = observeRequest(observer, req, res, NO_VERSION);
    const kind = isPagePath(req.url) ? 'request' : applyCors(req, res, cors);
    const guarded = guardRequest(req, res, guard);
    if (!guarded) return;
    if (guarded.target.version) observation.version = guarded.target.version;
    if (kind === 'preflight') {
      observation.route = routeTemplate(guarded.target) ?? UNMATCHED_ROUTE;
      answerPreflight(res);
      return;
    }
    if (servedByProxyRoute(guarded.target)) {
      proxy.serve(req, res, guarded);
      return;
    }
    rememberGuarded(req, guarded);
    express(req, res);
  });
}
