import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DomainError } from '@tcg/domain';
import { credentialMatches, INTERNAL_HEADERS } from '../contract';
import type { NextFunction, Request, Response } from 'express';
import { observationOf } from './observability/observability.module';

/**
 * The service trusts the gateway and nothing else: any request without the gateway's internal
 * credential is refused (403) — known path or not — so nobody can bypass keys and quotas by
 * calling the service directly. `/health` and its `live` and `ready` forms stay open for
 * orchestrators' probes; they reveal nothing.
 */
const OPEN_PATHS = new Set(['/health', '/health/live', '/health/ready']);

@Injectable()
export class InternalCredentialMiddleware implements NestMiddleware {
  private readonly credential: string;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.credential = config.getOrThrow<string>('INTERNAL_TOKEN');
  }

  use(req: Request, _res: Response, next: NextFunction): void {
    // req.path is relative to the middleware's mount point; the original URL is the real path.
    const path = req.originalUrl.split('?', 1)[0];
    if (
      !OPEN_PATHS.has(path) &&
      !credentialMatches(this.credential, req.header(INTERNAL_HEADERS.credential))
    ) {
      throw new DomainError('FORBIDDEN', 'Requests must come through the API gateway.');
    }
    // Only now are the caller headers the gateway's own (its allow-list drops a client's).
    const observation = observationOf(req);
    if (observation) {
      observation.keyId = header(req, INTERNAL_HEADERS.keyId);
      const cost = Number(req.header(INTERNAL_HEADERS.cost));
      if (Number.isSafeInteger(cost)) observation.cost = cost;
    }
    next();
  }
}

/** A header's value, capped: even the gateway's headers are not written to a line unbounded. */
function header(req: Request, name: string): string | undefined {
  return req.header(name)?.slice(0, 64);
}
