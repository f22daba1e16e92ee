import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { bootOrExit } from './boot';
import { ServiceLogger } from './observability/logger';
import { MetricsServer } from './observability/metrics-server';

/** What differs between workers' mains. */
export interface RunWorkerOptions {
  /** The worker's name, as the line of a failed boot gives it. */
  readonly name: string;
  /**
   * Its root module, which provides its environment (EnvironmentModule) and ObservabilityModule,
   * and whose providers start their jobs in `onApplicationBootstrap` and stop them (aborting and
   * waiting for the work under way) in `onApplicationShutdown`.
   */
  readonly module: Type<unknown>;
}

/**
 * A worker's main: a Nest application context (no HTTP server, no API port) from its root module,
 * with the services' pino-backed `ServiceLogger` (Nest's lines while it boots are held until that
 * logger takes over), shutdown hooks (SIGTERM, SIGINT: the jobs abort and wait, then the pools
 * close), and the admin server on METRICS_PORT (`/metrics`, and `/health` for the orchestrator's
 * probes); one line says it runs. A failure to boot is one fatal JSON line and exit 1, as a service's.
 */
export function runWorker(options: RunWorkerOptions): void {
  bootOrExit(options.name, () => bootstrap(options));
}

async function bootstrap(options: RunWorkerOptions): Promise<void> {
  const app = await NestFactory.createApplicationContext(options.module, { bufferLogs: true });
  const logger = app.get(ServiceLogger);
  app.useLogger(logger);
  app.enableShutdownHooks();
  const metricsPort = await app.get(MetricsServer).listen();
  logger.log({ msg: 'running', metricsPort: metricsPort ?? null }, 'Bootstrap');
}
