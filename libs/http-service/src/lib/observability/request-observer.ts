import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { HEALTH_PATHS } from '../../contract';
import { methodLabel, ServiceMetrics, UNMATCHED_ROUTE } from './metrics';

/**
 * What is known of one request while it is served, filled in by whoever learns it: the route
 * template once routed, the caller's key id and the units charged once admitted.
 */
export interface Observation {
  route: string | undefined;
  version: string;
  keyId: string | undefined;
  cost: number | undefined;
}

/** Longest request id written to a line; the gateway only forwards ids of at most 128 characters. */
const MAX_REQUEST_ID = 128;

/**
 * Records every request once, when its response closes (answered, or the client gone): the HTTP
 * metrics by route template, version and status, and one access line — request id, method, route
 * template, status, duration, key id (never the key) and cost — at `info`, a probe of one of the
 * `HEALTH_PATHS` at `debug`. A response closed before it was finished is counted under status
 * `aborted`. The route falls back to `routeOf(req)` (Express's matched route on a service), then
 * to `unmatched`: a raw path never becomes a label or a route.
 */
export class RequestObserver {
  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly log: Logger,
    private readonly routeOf: (req: IncomingMessage) => string | undefined = expressRoute,
  ) {}

  observe(req: IncomingMessage, res: ServerResponse, version: string): Observation {
    const started = process.hrtime.bigint();
    const observation: Observation = { route: undefined, version, keyId: undefined, cost: undefined };
    res.once('close', () => this.record(req, res, observation, started));
    return observation;
  }

  private record(req: IncomingMessage, res: ServerResponse, o: Observation, started: bigint): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = o.route ?? this.routeOf(req) ?? UNMATCHED_ROUTE;
    const method = methodLabel(req.method);
    const status = res.writableFinished ? String(res.statusCode) : 'aborted';
    this.metrics.observeRequest(route, method, o.version, status, seconds);
    const level = HEALTH_PATHS.has(route) ? 'debug' : 'info';
    if (!this.log.isLevelEnabled(level)) return;
    this.log[level]({
      msg: 'request',
      reqId: requestIdOf(req, res),
      method,
      route,
      version: o.version,
      status: res.writableFinished ? res.statusCode : 'aborted',
      durationMs: Math.round(seconds * 1e5) / 100,
      keyId: o.keyId,
      cost: o.cost,
    });
  }
}

/** The request's id as a log line writes it: the one the gateway set, at most MAX_REQUEST_ID characters. */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string | undefined {
  const id = res.getHeader('x-request-id') ?? req.headers['x-request-id'];
  return typeof id === 'string' ? id.slice(0, MAX_REQUEST_ID) : undefined;
}

/**
 * The template of the Express route that answered (`/v2/cards/:id`), if one did: Express 5 leaves
 * the matched route on the request.
 */
export function expressRoute(req: IncomingMessage): string | undefined {
  const r = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  const path = r.route?.path;
  return typeof path === 'string' ? `${r.baseUrl ?? ''}${path}` : undefined;
}
