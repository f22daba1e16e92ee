import type { Server } from 'node:http';
import { INestApplication, NestApplicationOptions, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ServiceEnvironment } from './environment';
import { ServiceLogger } from './observability/logger';
import { MetricsServer } from './observability/metrics-server';

/**
 * A service's main: creates the app from its root module, applies its configureApp and the
 * server timeouts, and listens on PORT and HOST; a failure to boot is one fatal JSON line and exit 1.
 */
export function runService(
  name: string,
  module: Type<unknown>,
  configureApp: (app: INestApplication) => void,
): void {
  bootstrap(module, configureApp).catch((error: unknown) => {
    process.stderr.write(`${JSON.stringify({ level: 'fatal', service: name, msg: String(error) })}\n`);
    process.exit(1);
  });
}

/**
 * Creates an HTTP app (every service's, the gateway's too), whose root module imports
 * `ObservabilityModule`, with its pino-backed `ServiceLogger` at the configured LOG_LEVEL and
 * LOG_FORMAT. Nest's lines while it creates the app are held until that logger takes over (or
 * printed as they are if creating the app fails).
 */
export async function createServiceApp(
  module: Type<unknown>,
  options: NestApplicationOptions = {},
): Promise<{ app: INestApplication; logger: ServiceLogger }> {
  const app = await NestFactory.create(module, { ...options, bufferLogs: true });
  const logger = app.get(ServiceLogger);
  app.useLogger(logger);
  return { app, logger };
}

/**
 * After the app listens: `/metrics` on its admin port (METRICS_PORT), and one line saying where
 * both are. A taken admin port fails the start like a taken API port.
 */
export async function listenMetrics(
  app: INestApplication,
  logger: ServiceLogger,
  port: number,
): Promise<void> {
  const metricsPort = await app.get(MetricsServer).listen();
  logger.log({ msg: 'listening', port, metricsPort: metricsPort ?? null }, 'Bootstrap');
}

async function bootstrap(
  module: Type<unknown>,
  configureApp: (app: INestApplication) => void,
): Promise<void> {
  const { app, logger } = await createServiceApp(module);
  configureApp(app);
  const env = app.get(ServiceEnvironment);
  applyServerTimeouts(app.getHttpServer() as Server, env);
  await app.listen(env.PORT, env.HOST);
  await listenMetrics(app, logger, env.PORT);
}

/**
 * Only the gateway calls a service: a slow or silent sender is cut off rather than holding a
 * socket, and idle keep-alive sockets outlive the gateway's own idle timeout for them.
 */
function applyServerTimeouts(server: Server, env: ServiceEnvironment): void {
  server.keepAliveTimeout = env.SERVER_KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = env.SERVER_HEADERS_TIMEOUT_MS;
  server.requestTimeout = env.SERVER_REQUEST_TIMEOUT_MS;
  // Node enforces the two timeouts above only when it sweeps its connections, every 30 s by
  // default (a createServer option that Nest does not pass on); it reads this when it starts
  // listening, so a stalled request is cut within a second of its deadline instead.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1000;
}
