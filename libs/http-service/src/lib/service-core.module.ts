import { DynamicModule, InjectionToken, MiddlewareConsumer, Module, NestModule, Type } from '@nestjs/common';
import { ServiceEnvironment } from './environment';
import { EnvironmentModule } from './environment.module';
import { ResponsesModule } from './http-caching/cached-responder';
import { type HealthReport, MetricsServer } from './observability/metrics-server';
import { ObservabilityModule, type ObservabilityOptions } from './observability/observability.module';
import { RejectNulMiddleware } from './reject-nul.middleware';

/**
 * A service's database as this module wires it. This lib may not import persistence (Nx tags), so
 * `@tcg/persistence/nest` provides it (`serviceDatabase`) and the app hands it over.
 */
export interface ServiceDatabase {
  /** The module that provides the data source, the data version and `/health`. */
  readonly module: DynamicModule;
  /** The data source's token and how to read its pool, for the metrics. */
  readonly pool: NonNullable<ObservabilityOptions['database']>;
  /** The tokens of its `DataVersionSource` and of `/health`'s details (see `ResponsesModule`). */
  readonly versions: InjectionToken;
  readonly health: InjectionToken;
  /** The token of what reports the service's health in full (`report()`), for the admin port. */
  readonly report: InjectionToken;
}

/** What `ServiceDatabase.report` provides. */
interface HealthReporter {
  report(): Promise<HealthReport>;
}

/** Not injected anywhere: providing it puts the service's full health on the admin port. */
const ADMIN_HEALTH = Symbol('AdminHealth');

export interface ServiceCoreOptions<T extends ServiceEnvironment> {
  /** The service's name: its logs', metrics' and database connections'. */
  readonly service: string;
  /** The app's own Environment class, under which its validated environment is injected. */
  readonly environment: Type<T>;
  /** Reads and validates the raw environment once at boot (`readServiceEnvironment` of the app's own). */
  readonly validate: (raw: Record<string, unknown>) => T;
  /** The database, reading its variables from the environment provided under `settings`. */
  readonly database: (service: string, settings: Type<ServiceEnvironment>) => ServiceDatabase;
}

/**
 * What every service behind the gateway is made of besides its features: the validated
 * configuration, its database and `/health`, logs and metrics, the response cache, and the
 * middleware that refuses a NUL in the path or query (configureService mounts the one that
 * refuses a request not from the gateway, ahead of the body parsers). An app's
 * root module imports this and lists its feature modules.
 */
@Module({})
export class ServiceCoreModule implements NestModule {
  static forService<T extends ServiceEnvironment>(options: ServiceCoreOptions<T>): DynamicModule {
    const database = options.database(options.service, ServiceEnvironment);
    return {
      module: ServiceCoreModule,
      imports: [
        EnvironmentModule.forApp(options.environment, options.validate),
        database.module,
        ObservabilityModule.forService({ service: options.service, database: database.pool }),
        ResponsesModule.forService({ versions: database.versions, health: database.health }),
      ],
      providers: [
        {
          provide: ADMIN_HEALTH,
          inject: [MetricsServer, database.report],
          useFactory: (server: MetricsServer, health: HealthReporter) =>
            server.reportHealth(() => health.report()),
        },
      ],
    };
  }

  /** Every path: Nest applies a module's middlewares to the routes of the whole app. */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RejectNulMiddleware).forRoutes('{*path}');
  }
}
