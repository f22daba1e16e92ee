import { DynamicModule, Global, InjectionToken, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { BaseEnvironment } from '../environment';
import { createPinoLogger, ServiceLogger } from './logger';
import { ServiceMetrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { type Observation, RequestObserver } from './request-observer';

const OBSERVATION = Symbol('observation');

/** The process's pino logger (access lines are written to it directly, not through Nest's Logger). */
export const PINO_LOGGER = Symbol('PINO_LOGGER');

/** What a data source's pool holds; the app reads it from persistence (`poolUsage`). */
export interface PoolUsageReading {
  readonly inUse: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

export interface ObservabilityOptions {
  /** The `service` of every line and series. */
  readonly service: string;
  /** The app's database, whose pool is reported when scraped: its token and how to read it. */
  readonly database?: {
    readonly token: InjectionToken;
    readonly usage: (source: never) => PoolUsageReading | undefined;
  };
}

/**
 * Logs and metrics of one HTTP app, for every module of it: the pino logger (LOG_LEVEL,
 * LOG_FORMAT), Nest's logger over it (`ServiceLogger`, which createServiceApp installs), the
 * metrics registry, the request observer (metrics and access line per request) and the admin
 * port's `/metrics` server, which the app's bootstrap starts once it listens.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forService(options: ObservabilityOptions): DynamicModule {
    const database = options.database;
    return {
      module: ObservabilityModule,
      providers: [
        {
          provide: PINO_LOGGER,
          inject: [ConfigService],
          useFactory: (config: ConfigService) =>
            createPinoLogger(
              options.service,
              config.getOrThrow<BaseEnvironment['LOG_LEVEL']>('LOG_LEVEL'),
              config.getOrThrow<BaseEnvironment['LOG_FORMAT']>('LOG_FORMAT'),
            ),
        },
        {
          provide: ServiceLogger,
          inject: [PINO_LOGGER],
          useFactory: (pino: Logger) => new ServiceLogger(pino),
        },
        {
          provide: ServiceMetrics,
          inject: database ? [database.token] : [],
          useFactory: (source?: never) => {
            const metrics = new ServiceMetrics(options.service);
            if (database) registerPoolUsage(metrics, () => database.usage(source!));
            return metrics;
          },
        },
        {
          provide: RequestObserver,
          inject: [ServiceMetrics, PINO_LOGGER],
          useFactory: (metrics: ServiceMetrics, pino: Logger) => new RequestObserver(metrics, pino),
        },
        MetricsServer,
      ],
      exports: [PINO_LOGGER, ServiceLogger, ServiceMetrics, RequestObserver, MetricsServer],
    };
  }
}

/** `tcg_db_pool_connections{state}`, `tcg_db_pool_waiting` and `tcg_db_pool_max_connections`. */
function registerPoolUsage(metrics: ServiceMetrics, read: () => PoolUsageReading | undefined): void {
  metrics.gaugeAtScrape(
    'db_pool_connections',
    'PostgreSQL connections of this process’s pool, in use by a query or idle.',
    ['state'],
    () => {
      const usage = read();
      return (
        usage && [
          { labels: { state: 'in_use' }, value: usage.inUse },
          { labels: { state: 'idle' }, value: usage.idle },
        ]
      );
    },
  );
  metrics.gaugeAtScrape('db_pool_waiting', 'Callers waiting for a pooled PostgreSQL connection.', [], () => {
    const usage = read();
    return usage && [{ labels: {}, value: usage.waiting }];
  });
  metrics.gaugeAtScrape('db_pool_max_connections', 'Size limit of the PostgreSQL pool.', [], () => {
    const usage = read();
    return usage && [{ labels: {}, value: usage.max }];
  });
}

/**
 * Observes a request (see RequestObserver) and keeps its observation on it, for the steps that
 * learn more of it later (`observationOf`).
 */
export function observeRequest(
  observer: RequestObserver,
  req: IncomingMessage,
  res: ServerResponse,
  version: string,
): Observation {
  const observation = observer.observe(req, res, version);
  (req as IncomingMessage & { [OBSERVATION]?: Observation })[OBSERVATION] = observation;
  return observation;
}

/**
 * An Express middleware, first of a service's: every request is observed (metrics and access
 * line) under the service's API version, routed or not.
 */
export function observeRequests(observer: RequestObserver, version: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    observeRequest(observer, req, res, version);
    next();
  };
}

/** The observation of a request `observeRequest` saw, to add what a later step learns (the caller). */
export function observationOf(req: IncomingMessage): Observation | undefined {
  return (req as IncomingMessage & { [OBSERVATION]?: Observation })[OBSERVATION];
}
