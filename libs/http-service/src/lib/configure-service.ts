import { ExceptionFilter, INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { parse } from 'node:querystring';
import { BaseEnvironment } from './environment';
import { requireInternalCredential } from './internal-credential.middleware';
import { observeRequests } from './observability/observability.module';
import { RequestObserver } from './observability/request-observer';
import { limitRequestTarget } from './request-target-limit.middleware';

/** What differs between the versions: the largest JSON body and the filter that shapes errors. */
export interface ServiceOptions {
  /** In the body parser's notation (`'512kb'`); a larger body is refused unread with a 413. */
  readonly bodyLimit: string;
  /** The version's one global filter, which gives every error the version's body. */
  readonly exceptionFilter: ExceptionFilter;
  /** The `version` label of its metrics and access lines. */
  readonly version: 'v1' | 'v2';
}

/**
 * Global middlewares, filter and options of a service behind the gateway; each app's configureApp,
 * which main.ts and the end-to-end tests both call, calls this. No global pipe: each route reads
 * its query and body with its request schema
 * (docs/decisions/0002-request-validation-and-throttling.md).
 */
export function configureService(app: INestApplication, options: ServiceOptions): void {
  const express = app.getHttpAdapter().getInstance() as Express;
  // First, so that every request is counted and logged, refused ones included.
  app.use(observeRequests(app.get(RequestObserver), options.version));
  strictRouting(express);
  express.disable('x-powered-by');
  // Express would hash every body for an ETag: a SHA-1 over megabytes for a 100-card page, for a
  // validator nobody asked for (the services set their own entity tags).
  express.disable('etag');
  // Express's parser reads only the first 1,000 pairs; the gateway prices a request from all of
  // them, so a `regions=` past the thousandth would be charged and silently ignored. The query
  // string is at most 4,096 characters (limitRequestTarget runs before anything reads req.query).
  express.set('query parser', (query: string) => parse(query, '&', '=', { maxKeys: 0 }));
  app.use(limitRequestTarget);
  // Before any body is read or inflated: a caller without the gateway's credential gets its 403
  // whatever it sends, and costs no parsing.
  app.use(requireInternalCredential(app.get(BaseEnvironment).INTERNAL_TOKEN));
  // Nest mounts its own parsers (100 KB) at init unless one of the same kind is mounted already.
  (app as NestExpressApplication).useBodyParser('json', { limit: options.bodyLimit });
  app.useGlobalFilters(options.exceptionFilter);
  app.enableShutdownHooks();
}

/**
 * `/V1/cards` and `/v1/cards/` are 404s, not aliases of `/v1/cards` that the gateway's per-path
 * cost and quota rules would have to know about (the gateway calls it too). Express reads these two settings once, when it
 * builds its router, and Nest's adapter builds it in its constructor, before this runs; the
 * router reads its own copy of them each time a route is added, and Nest adds the routes at init.
 */
export function strictRouting(express: Express): void {
  express.enable('case sensitive routing');
  express.enable('strict routing');
  const router = express.router as { caseSensitive?: boolean; strict?: boolean };
  router.caseSensitive = true;
  router.strict = true;
}
