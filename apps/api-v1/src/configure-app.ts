import { INestApplication, ValidationPipe } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { V1ExceptionFilter } from './common/filters/v1-exception.filter';
import { limitRequestTarget } from './common/middleware/request-target-limit.middleware';

/**
 * The largest JSON body read: a batch of 200 items, each an identifier (256 characters) with a
 * printing and a condition list (512 each) and its punctuation, is about 280 KB of ASCII; the rest
 * is room for non-ASCII text. A larger body is refused unread, with the parser's 413.
 */
export const BODY_LIMIT = '512kb';

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
  app.useGlobalFilters(new V1ExceptionFilter());
  app.enableShutdownHooks();
}

/**
 * `/V1/cards` and `/v1/cards/` are 404s, not aliases of `/v1/cards` that the gateway's per-path
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
