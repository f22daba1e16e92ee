import { INestApplication, ValidationPipe } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { ProblemDetailsFilter } from './common/filters/problem-details.filter';
import { limitRequestTarget } from './common/middleware/request-target-limit.middleware';

/** No v2 route reads a body: anything beyond a stray small one is refused unread (413). */
export const BODY_LIMIT = '16kb';

/** Global pipes, filters and options; main.ts and the end-to-end tests both call this. */
export function configureApp(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as Express;
  strictRouting(express);
  express.disable('x-powered-by');
  // Express would hash every body for an ETag: a SHA-1 over megabytes for a 100-card page
  // (measured in the v2 profile), for a validator no client of this API sends back.
  express.disable('etag');
  app.use(limitRequestTarget);
  // Nest mounts its own parsers (100 KB) at init unless one of the same kind is mounted already.
  (app as NestExpressApplication).useBodyParser('json', { limit: BODY_LIMIT });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  app.useGlobalFilters(app.get(ProblemDetailsFilter));
  app.enableShutdownHooks();
}

/**
 * `/V2/cards` and `/v2/cards/` are 404s, not aliases of `/v2/cards` that the gateway's per-path
 * cost and quota rules would have to know about. Express reads these two settings once, when it
 * builds its router, and Nest's adapter builds it in its constructor, before this runs; the
 * router reads its own copy of them each time a route is added, and Nest adds the routes at init.
 */
function strictRouting(express: Express): void {
  express.enable('case sensitive routing');
  express.enable('strict routing');
  const router = express.router as { caseSensitive?: boolean; strict?: boolean };
  router.caseSensitive = true;
  router.strict = true;
}
