import { INestApplication } from '@nestjs/common';
import { RequestObserver, strictRouting } from '@tcg/http-service';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { parseCorsOrigins } from './common/cors';
import { GatewayExceptionFilter } from './common/gateway-exception.filter';
import { Environment } from './config/environment';
import { ProxyService } from './proxy/proxy.service';
import { serveProxyBeforeExpress } from './request-listener';

/**
 * Global options; main.ts and the end-to-end tests both call this. The app must be created with
 * `bodyParser: false` (see GATEWAY_APP_OPTIONS) so request bodies stream to the services unparsed.
 */
export function configureApp(app: INestApplication): void {
  const env = app.get(Environment);
  const express = app.getHttpAdapter().getInstance() as Express;
  express.disable('x-powered-by');
  // `/V2/cards` and `/v1/cards/` must not reach a route the cost function does not recognise.
  strictRouting(express);
  app.useGlobalFilters(new GatewayExceptionFilter(env.DOCS_URL));
  app.enableShutdownHooks();
  const server = app.getHttpServer() as Server;
  const proxy = app.get(ProxyService);
  const guard = { maxBodyBytes: env.MAX_BODY_BYTES, docsUrl: env.DOCS_URL, linger: proxy.linger };
  const cors = parseCorsOrigins(env.CORS_ORIGINS);
  serveProxyBeforeExpress(server, express, proxy, guard, cors, app.get(RequestObserver));
  boundShutdown(server);
}

export const GATEWAY_APP_OPTIONS = { bodyParser: false } as const;

/** How long in-flight requests may finish after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * server.close() stops the timeout checks and then waits for every connection to end, so one
 * client dribbling headers would hold a shutdown forever. Idle connections go at once, the rest
 * after the grace period.
 */
function boundShutdown(server: Server): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    });
  }
}
