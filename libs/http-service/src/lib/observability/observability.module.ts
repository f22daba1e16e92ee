import { DynamicModule, Global, InjectionToken, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { BaseEnvironment } from '../environment';
import { createPinoLogger, ServiceLogger } from './logger';
import { ServiceMetrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { expressRoute, type Observation, RequestObserver, requestIdOf } from './request-observer';

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

/** Where a service's reads went (`ReadReplicas.routing()` in persistence). */
export interface ReadRoutingReading {
  readonly floor: number | null;
  readonly primaryReads: number;
  readonly replicas: readonly {
    readonly name: string;
    readonly up: boolean;
    readonly replayedVersion: number | null;
    readonly reads: number;
  }[];
}

/** A read statement cut short (persistence's `CancelledStatement`). */
export interface CancelledStatementReading {
  readonly reason: string;
  readonly statement: string;
}

export interface ObservabilityOptions {
  /** The `service` of every line and series. */
  readonly service: string;
  /** The app's database, whose pool is reported when scraped: its token and how to read it. */
  readonly database?: {
    readonly token: InjectionToken;
    readonly usage: (source: never) => PoolUsageReading | undefined;
    /** Its read replicas, when it may have some: their token and how to read where reads went. */
    readonly reads?: {
      readonly token: InjectionToken;
      readonly routing: (reads: never) => ReadRoutingReading | undefined;
    };
    /** Subscribes to the statements cut short (persistence's `onStatementCancelled`). */
    readonly cancellations?: (listener: (cancelled: CancelledStatementReading) => void) => () => void;
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
          inject: [BaseEnvironment],
          useFactory: (env: BaseEnvironment) =>
            createPinoLogger(options.service, env.LOG_LEVEL, env.LOG_FORMAT),
        },
        {
          provide: ServiceLogger,
          inject: [PINO_LOGGER],
          useFactory: (pino: Logger) => new ServiceLogger(pino),
        },
        {
          provide: ServiceMetrics,
          inject: [
            PINO_LOGGER,
            ...(database ? [database.token, ...(database.reads ? [database.reads.token] : [])] : []),
          ],
          useFactory: (pino: Logger, source?: never, reads?: never) => {
            const metrics = new ServiceMetrics(options.service);
            if (database) registerPoolUsage(metrics, () => database.usage(source!));
            if (database?.reads) registerReadRouting(metrics, () => database.reads!.routing(reads!));
            if (database?.cancellations) registerCancellations(metrics, pino, database.cancellations);
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

/** The pool's connection states, as labelled and as read. */
const POOL_STATES = [
  ['in_use', 'inUse'],
  ['idle', 'idle'],
] as const;

/** `tcg_db_pool_connections{state}`, `tcg_db_pool_waiting` and `tcg_db_pool_max_connections`. */
function registerPoolUsage(metrics: ServiceMetrics, read: () => PoolUsageReading | undefined): void {
  const unlabelled = (value: number | undefined) =>
    value === undefined ? undefined : [{ labels: {}, value }];
  metrics.gaugeAtScrape(
    'db_pool_connections',
    'PostgreSQL connections of this process’s pool, in use by a query or idle.',
    ['state'],
    () => {
      const usage = read();
      return usage && POOL_STATES.map(([state, field]) => ({ labels: { state }, value: usage[field] }));
    },
  );
  metrics.gaugeAtScrape('db_pool_waiting', 'Callers waiting for a pooled PostgreSQL connection.', [], () =>
    unlabelled(read()?.waiting),
  );
  metrics.gaugeAtScrape('db_pool_max_connections', 'Size limit of the PostgreSQL pool.', [], () =>
    unlabelled(read()?.max),
  );
}

/**
 * `tcg_db_reads_total{target}` (`primary`, or a replica's `host:port/database`) and, per replica,
 * `tcg_db_replica_up` and `tcg_db_replica_behind_versions` (the data versions it has yet to
 * replay to take reads). No series without replicas.
 */
function registerReadRouting(metrics: ServiceMetrics, read: () => ReadRoutingReading | undefined): void {
  metrics.countersAtScrape(
    'db_reads_total',
    'Catalogue and card reads, by where they ran.',
    ['target'],
    () => {
      const r = read();
      return (
        r && [
          { labels: { target: 'primary' }, value: r.primaryReads },
          ...r.replicas.map((x) => ({ labels: { target: x.name }, value: x.reads })),
        ]
      );
    },
  );
  metrics.gaugeAtScrape(
    'db_replica_up',
    'Whether the read replica answered its last check (1) or not (0).',
    ['replica'],
    () => read()?.replicas.map((x) => ({ labels: { replica: x.name }, value: x.up ? 1 : 0 })),
  );
  metrics.gaugeAtScrape(
    'db_replica_behind_versions',
    'Data versions the read replica has yet to replay before it takes reads (0: up to date).',
    ['replica'],
    () => {
      const r = read();
      return r?.replicas.flatMap((x) =>
        x.replayedVersion === null || r.floor === null
          ? []
          : [{ labels: { replica: x.name }, value: Math.max(0, r.floor - x.replayedVersion) }],
      );
    },
  );
}

/**
 * `tcg_db_statements_cancelled_total{reason}` and one warn line per statement cut short, with the
 * route and request id of the request it served (when it served one) and its statement's name (a
 * digest of its text: no values, so no keys or user input). The listener lives as long as the
 * process, as the metrics registry does.
 */
function registerCancellations(
  metrics: ServiceMetrics,
  log: Logger,
  subscribe: NonNullable<NonNullable<ObservabilityOptions['database']>['cancellations']>,
): void {
  const cancelled = metrics.counter(
    'db_statements_cancelled_total',
    'Read statements cut short: by statement_timeout, a cancel request or the client deadline.',
    ['reason'],
  );
  subscribe(({ reason, statement }) => {
    cancelled.labels({ reason }).inc();
    const request = requestContext.getStore();
    log.warn({
      msg: 'statement cancelled',
      reason,
      statement,
      route: request && (request.observation.route ?? expressRoute(request.req)),
      reqId: request && requestIdOf(request.req, request.res),
    });
  });
}

/** The request being served, for what learns of it without being handed it (a cancelled statement). */
const requestContext = new AsyncLocalStorage<{
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly observation: Observation;
}>();

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
    const observation = observeRequest(observer, req, res, version);
    requestContext.run({ req, res, observation }, next);
  };
}

/** The observation of a request `observeRequest` saw, to add what a later step learns (the caller). */
export function observationOf(req: IncomingMessage): Observation | undefined {
  return (req as IncomingMessage & { [OBSERVATION]?: Observation })[OBSERVATION];
}
