import { DomainError } from '@tcg/domain';
import { credentialMatches, HEALTH_PATHS, INTERNAL_HEADERS } from '../contract';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { observationOf } from './observability/observability.module';

/**
 * The service trusts the gateway and nothing else: any request without the gateway's internal
 * credential is refused (403) — known path or not — so nobody can bypass keys and quotas by
 * calling the service directly. `/health` and its `live` and `ready` forms (`HEALTH_PATHS`) stay
 * open for orchestrators' probes.
 *
 * The check is a plain Express middleware, which configureService mounts ahead of the body
 * parsers: a Nest module's middlewares run only after every `app.use`, so a stranger's body would
 * otherwise be read, inflated and parsed (up to the body limit, a 413 or a 400 before the 403).
 */
export function requireInternalCredential(credential: string): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    // req.path is relative to the middleware's mount point; the original URL is the real path.
    const path = req.originalUrl.split('?', 1)[0]!;
    if (!HEALTH_PATHS.has(path) && !credentialMatches(credential, req.header(INTERNAL_HEADERS.credential))) {
      next(new DomainError('FORBIDDEN', 'Requests must come through the API gateway.'));
      return;
    }
    // Only now are the caller headers the gateway's own (its allow-list drops a client's).
    const observation = observationOf(req);
    if (observation) {
      observation.keyId = header(req, INTERNAL_HEADERS.keyId);
      const cost = Number(req.header(INTERNAL_HEADERS.cost));
      if (Number.isSafeInteger(cost)) observation.cost = cost;
    }
    next();
  };
}

/** A header's value, capped: even the gateway's headers are not written to a line unbounded. */
function header(req: Request, name: string): string | undefined {
  return req.header(name)?.slice(0, 64);
}
