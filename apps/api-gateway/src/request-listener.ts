import { observeRequest, type RequestObserver, UNMATCHED_ROUTE } from '@tcg/http-service';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { answerPreflight, applyCors, type CorsOrigins, isPagePath } from './common/cors';
import { sendError } from './common/error-shape';
import { behindLastAnswer } from './common/lingering-close';
import { guardRequest, type RequestGuardOptions } from './common/request-guard';
import { MCP_PATH, type ProxyService } from './proxy/proxy.service';
import { routeRefusal, routeTemplate } from './proxy/route-template';

/** The `version` label of what is not under `/v1` or `/v2` (health, the OpenAPI documents). */
const NO_VERSION = 'none';

/**
 * Puts the gateway's own request listener in front of Express's on `server`: the one path of every
 * API request. Every request is observed first (metrics and access line, see RequestObserver),
 * then the CORS headers are set (not on the pages: see isPagePath), then the request guard runs; a
 * preflight that passes it is answered, and a `/v1` or `/v2` request goes to the proxy, which reads
 * and writes plain node requests and responses and answers its own errors; so does `/mcp`, the MCP
 * server's endpoint (ProxyService.serveMcp). Only what is not under a version (health, the OpenAPI
 * documents, `/llms.txt`, the pages, unknown paths) goes on to Express.
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
    // Parsed behind its connection's last answer (pipelined, or in a refused body's wake): the
    // connection closes once that answer is out, and this request is never served.
    if (behindLastAnswer(req)) return;
    // Parsed from what its connection sent before it was cut (see BadKeyDelay): nobody to answer.
    if (req.socket.destroyed) return;
    // Every request is counted and logged, refused ones included; the proxy adds route and caller.
    const observation = observeRequest(observer, req, res, NO_VERSION);
    const kind = isPagePath(req.url) ? 'request' : applyCors(req, res, cors);
    const guarded = guardRequest(req, res, guard);
    if (!guarded) return;
    const { target } = guarded;
    if (target.version) observation.version = target.version;
    if (kind === 'preflight') {
      observation.route = routeTemplate(target) ?? UNMATCHED_ROUTE;
      answerPreflight(res);
      return;
    }
    if (target.path === MCP_PATH) {
      proxy.serveMcp(req, res, guarded);
      return;
    }
    if (!target.version) {
      express(req, res);
      return;
    }
    const refusal = routeRefusal(target, req.method ?? 'GET');
    if (refusal) {
      sendError(res, target.path, refusal.status, refusal.code, refusal.message, guard.docsUrl);
      return;
    }
    proxy.serve(req, res, guarded);
  });
}
