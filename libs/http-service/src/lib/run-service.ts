import type { Server } from 'node:http';
import { INestApplication, NestApplicationOptions, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { bootOrExit } from './boot';
import type { ServiceEnvironment } from './environment';
import { ServiceLogger } from './observability/logger';
import { MetricsServer } from './observability/metrics-server';

/** What the bootstrap reads of an app's environment: where it listens and its server's deadlines. */
export type ServerEnvironment = Pick<
  ServiceEnvironment,
  'PORT' | 'HOST' | 'SERVER_HEADERS_TIMEOUT_MS' | 'SERVER_REQUEST_TIMEOUT_MS' | 'SERVER_KEEP_ALIVE_TIMEOUT_MS'
>;

/** What differs between the apps' mains (the services' and the gateway's). */
export interface RunOptions {
  /** The app's name, as the line of a failed boot gives it. */
  readonly name: string;
  /** Its root module, which provides its environment (EnvironmentModule) and ObservabilityModule. */
  readonly module: Type<unknown>;
  /** The class its validated environment is injected under (the app's `Environment`). */
  readonly environment: Type<ServerEnvironment>;
  /** Its global filters, middlewares and options: the app's configureApp. */
  readonly configure: (app: INestApplication) => void;
  /** Options of the Nest app (the gateway turns the body parser off). */
  readonly appOptions?: NestApplicationOptions;
}

/**
 * An app's main: creates the app from its root module with its pino-backed `ServiceLogger` (Nest's
 * lines while it creates the app are held until that logger takes over, or printed as they are if
 * creating the app fails), applies its configure step and the server timeouts, listens on PORT
 * and HOST, then serves `/metrics` on its admin port (METRICS_PORT) and logs one line saying
 * where both are. A failure to boot (a taken admin port included) is one fatal JSON line and exit 1.
 */
export function runService(options: RunOptions): void {
  bootOrExit(options.name, () => bootstrap(options));
}

async function bootstrap(options: RunOptions): Promise<void> {
  const app = await NestFactory.create(options.module, { ...options.appOptions, bufferLogs: true });
  const logger = app.get(ServiceLogger);
  app.useLogger(logger);
  options.configure(app);
  const env = app.get(options.environment);
  applyServerTimeouts(app.getHttpServer() as Server, env);
  await app.listen(env.PORT, env.HOST);
  const metricsPort = await app.get(MetricsServer).listen();
  logger.log({ msg: 'listening', port: env.PORT, metricsPort: metricsPort ?? null }, 'Bootstrap');
}

/**
 * Node's defaults let a client take 60 s to send its headers and 5 min for a request, checked only
 * every 30 s: a few hundred slow clients would hold a server. Idle keep-alive sockets of the
 * services outlive the gateway's own idle timeout for them.
 */
function applyServerTimeouts(server: Server, env: ServerEnvironment): void {
  const headersTimeout = env.SERVER_HEADERS_TIMEOUT_MS;
  server.headersTimeout = headersTimeout;
  // Node refuses a request timeout (headers included) shorter than the headers'; the services'
  // environment checks it at boot, the gateway's does not.
  server.requestTimeout = Math.max(env.SERVER_REQUEST_TIMEOUT_MS, headersTimeout);
  server.keepAliveTimeout = env.SERVER_KEEP_ALIVE_TIMEOUT_MS;
  // Node enforces the two timeouts above only when it sweeps its connections, every 30 s by
  // default (a createServer option that Nest does not pass on); it reads this when it starts
  // listening, so a stalled request is cut within a second of its deadline instead.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    1_000,
    headersTimeout,
  );
}
