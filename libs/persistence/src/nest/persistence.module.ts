import {
  Controller,
  DynamicModule,
  Get,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
  Provider,
  ServiceUnavailableException,
  Type,
} from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource, poolOf, poolUsage, type DatabaseDeadlines } from '../lib/db/data-source';
import { DataVersionWatcher } from '../lib/db/data-version';
import { ALERTS, TypeOrmAlertRepository } from '../lib/alerts';
import { ID_CROSSWALK, KyselyIdCrosswalkRepository } from '../lib/crosswalk';
import { EXCHANGE_RATES, PgExchangeRateRepository } from '../lib/rates';
import { API_KEYS, TypeOrmApiKeyRepository } from '../lib/keys';
import {
  CARD_KEYSET_READS,
  CARD_READS,
  CATALOGUE,
  CardKeysetRepository,
  CardQueryRepository,
  PgVersionProbe,
  ReadReplicas,
  replicaName,
  systemIdentifierOf,
  TypeOrmCatalogueRepository,
  type ReadRouting,
  type ReadSource,
} from '../lib/reads';
import { onStatementCancelled } from '../lib/db/statement-cancellations';

const SERVICE_NAME = Symbol('SERVICE_NAME');

/** The service's `DataVersionSource` (a `DataVersionWatcher` on the service's database). */
export const DATA_VERSION = Symbol('DATA_VERSION');

/**
 * Where the catalogue and card reads run: `ReadReplicas` when DATABASE_READ_URLS names replicas,
 * else the data source itself. Keys (the gateway), bulk snapshots and every write stay on the primary.
 */
export const READS = Symbol('READS');

/**
 * A `pg` Pool for the app's background jobs (alert delivery, bulk generation): apart from the
 * requests' pool, so a job holding connections for minutes never takes one a request waits for,
 * with the jobs' longer statement deadline. Always the primary. Inject with `@Inject(BACKGROUND_POOL)`.
 */
export const BACKGROUND_POOL = Symbol('BackgroundPool');

/** Connections of the background pool: the alert sender's five and bulk generation's one. */
export const BACKGROUND_POOL_SIZE = 6;

/**
 * A background statement's deadline: a page of bulk rows or a claim of due events is far
 * shorter; a minute bounds a stuck one without cutting a slow one short.
 */
export const BACKGROUND_STATEMENT_TIMEOUT_MS = 60_000;

/**
 * The database variables of an app's validated environment (`@tcg/http-service`'s
 * `ServiceEnvironment`, the gateway's `Environment`), read from the class the app provides it under.
 */
export interface DatabaseSettings {
  readonly DATABASE_URL: string;
  readonly DATABASE_POOL_SIZE: number;
  readonly DATABASE_CONNECT_TIMEOUT_MS: number;
  readonly DATABASE_STATEMENT_TIMEOUT_MS: number;
  readonly DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: number;
  /** Comma-separated, validated at boot; the gateway has none (its reads stay on the primary). */
  readonly DATABASE_READ_URLS?: string;
}

/** A provider of `provide` built once per app on the service's data source. */
function onDataSource(
  provide: symbol | (abstract new (...args: never[]) => unknown),
  Repository: new (ds: DataSource) => unknown,
): Provider {
  return { provide, inject: [DataSource], useFactory: (ds: DataSource) => new Repository(ds) };
}

/** The background pool (`BACKGROUND_POOL`): no connection is opened until a job asks for one. */
export function createBackgroundPool(serviceName: string, settings: DatabaseSettings): Pool {
  const pool = new Pool({
    connectionString: settings.DATABASE_URL,
    application_name: `${serviceName} background`,
    max: BACKGROUND_POOL_SIZE,
    connectionTimeoutMillis: settings.DATABASE_CONNECT_TIMEOUT_MS,
    statement_timeout: BACKGROUND_STATEMENT_TIMEOUT_MS,
    query_timeout: BACKGROUND_STATEMENT_TIMEOUT_MS + 1000,
    idle_in_transaction_session_timeout: BACKGROUND_STATEMENT_TIMEOUT_MS,
    keepAlive: true,
  });
  // A connection lost while idle: the next statement reconnects; this keeps the event handled.
  pool.on('error', () => undefined);
  return pool;
}

/** A provider of `provide` built once per app on the service's reads (`READS`). */
function onReads(provide: symbol, Repository: new (reads: ReadSource) => unknown): Provider {
  return { provide, inject: [READS], useFactory: (reads: ReadSource) => new Repository(reads) };
}

/** The pool size and deadlines of the service's connections, primary and replicas alike. */
function connectionOptions(settings: DatabaseSettings): {
  readonly poolSize: number;
  readonly deadlines: DatabaseDeadlines;
} {
  return {
    poolSize: settings.DATABASE_POOL_SIZE,
    deadlines: {
      connectMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: settings.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
  };
}

/** The time between two checks of a replica's replayed version while it is up to date. */
const REPLICA_CHECK_MS = 1000;

/** What `/health` reports beside the database: each app adds its own parts (its response cache). */
@Injectable()
export class HealthDetails {
  private readonly parts = new Map<string, () => unknown>();

  add(name: string, part: () => unknown): void {
    this.parts.set(name, part);
  }

  collect(): Record<string, unknown> {
    return Object.fromEntries([...this.parts].map(([name, part]) => [name, part()]));
  }
}

/**
 * `/health` answers within this even when the database does not: the gateway's readiness check
 * waits on it, and a check that hangs tells an orchestrator nothing.
 */
const HEALTH_DEADLINE_MS = 1000;

/** A service's health: the database reachable, and (for the admin port only) the details. */
@Injectable()
export class DatabaseHealth {
  constructor(
    private readonly ds: DataSource,
    @Inject(SERVICE_NAME) readonly service: string,
    @Inject(DATA_VERSION) private readonly dataVersion: DataVersionWatcher,
    private readonly details: HealthDetails,
  ) {}

  /**
   * The whole report: the database, the data version this service answers under, and what the
   * app adds (its response cache, its read replicas). Degraded while the database does not answer.
   */
  async report(): Promise<Record<string, unknown> & { status: 'ok' | 'degraded'; service: string }> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error('health check deadline')), HEALTH_DEADLINE_MS);
    });
    try {
      await Promise.race([this.ds.query('SELECT 1'), deadline]);
    } catch {
      return { status: 'degraded', service: this.service, database: 'down' };
    } finally {
      clearTimeout(timer);
    }
    return {
      status: 'ok',
      service: this.service,
      database: 'up',
      dataVersion: this.dataVersion.current(),
      ...this.details.collect(),
    };
  }
}

@Controller('health')
class DatabaseHealthController {
  constructor(private readonly health: DatabaseHealth) {}

  /** Liveness for an orchestrator: the process answers. No I/O, so a database outage restarts nothing. */
  @Get('live')
  live(): { status: 'ok'; service: string } {
    return { status: 'ok', service: this.health.service };
  }

  /**
   * Readiness (also at `/health/ready`), open to probes and the gateway: up, or 503 while the
   * database does not answer. The details are on the admin port (`GET /health` there).
   */
  @Get(['', 'ready'])
  async ready(): Promise<{ status: 'ok'; service: string }> {
    if ((await this.health.report()).status !== 'ok')
      throw new ServiceUnavailableException('database unreachable');
    return { status: 'ok', service: this.health.service };
  }
}

/**
 * The NestJS wiring of a catalogue service's database: a TypeORM data source from the validated
 * `DATABASE_URL` / `DATABASE_POOL_SIZE`, a deadline on every wait (`DATABASE_CONNECT_TIMEOUT_MS`,
 * `DATABASE_STATEMENT_TIMEOUT_MS`, `DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`), closed on
 * shutdown, and `GET /health` with a database check.
 */
@Global()
@Module({})
export class PersistenceModule implements OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly ds: DataSource,
    @Inject(DATA_VERSION) private readonly dataVersion: DataVersionWatcher,
    @Inject(READS) private readonly reads: ReadSource,
    @Inject(BACKGROUND_POOL) private readonly background: Pool,
  ) {}

  /**
   * `settings` is the class the app's validated environment is injected under. `health: false`
   * leaves `/health` to the app (the gateway reports its services instead); `replicas: false`
   * keeps every read on the primary whatever DATABASE_READ_URLS says (the gateway: keys are read
   * where they are written).
   */
  static forService(
    serviceName: string,
    options: { settings: Type<DatabaseSettings>; health?: boolean; replicas?: boolean },
  ): DynamicModule {
    return {
      module: PersistenceModule,
      controllers: options.health === false ? [] : [DatabaseHealthController],
      providers: [
        { provide: SERVICE_NAME, useValue: serviceName },
        HealthDetails,
        DatabaseHealth,
        {
          provide: DataSource,
          inject: [options.settings],
          useFactory: (settings: DatabaseSettings) =>
            createDataSource({
              ...connectionOptions(settings),
              url: settings.DATABASE_URL,
              applicationName: serviceName,
            }).initialize(),
        },
        {
          provide: DATA_VERSION,
          inject: [options.settings],
          // Not connected until a user calls start(): the gateway, which caches nothing, never does.
          useFactory: (settings: DatabaseSettings) => {
            const logger = new Logger('DataVersion');
            return new DataVersionWatcher({
              url: settings.DATABASE_URL,
              applicationName: serviceName,
              timeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
              onError: (error) => logger.warn({ msg: 'data version unknown', error: error.message }),
            });
          },
        },
        {
          provide: READS,
          inject: [DataSource, DATA_VERSION, options.settings, HealthDetails],
          useFactory: (
            ds: DataSource,
            versions: DataVersionWatcher,
            settings: DatabaseSettings,
            health: HealthDetails,
          ) => (options.replicas === false ? ds : readsFor(serviceName, ds, versions, settings, health)),
        },
        {
          provide: BACKGROUND_POOL,
          inject: [options.settings],
          useFactory: (settings: DatabaseSettings) => createBackgroundPool(serviceName, settings),
        },
        // The ports under their tokens. The card reads' hand-written SQL (hot paths) is injected
        // as the object itself: the port adds no layer to a request.
        onReads(CATALOGUE, TypeOrmCatalogueRepository),
        onDataSource(API_KEYS, TypeOrmApiKeyRepository),
        onDataSource(ALERTS, TypeOrmAlertRepository),
        // Read once per data version by api-v2's conversions, on the primary: a replica behind it
        // would serve an older version's rates under a newer version's key.
        onDataSource(EXCHANGE_RATES, PgExchangeRateRepository),
        onDataSource(ID_CROSSWALK, KyselyIdCrosswalkRepository),
        onReads(CARD_READS, CardQueryRepository),
        onReads(CARD_KEYSET_READS, CardKeysetRepository),
      ],
      exports: [
        DataSource,
        DATA_VERSION,
        READS,
        BACKGROUND_POOL,
        HealthDetails,
        DatabaseHealth,
        CATALOGUE,
        API_KEYS,
        ALERTS,
        EXCHANGE_RATES,
        ID_CROSSWALK,
        CARD_READS,
        CARD_KEYSET_READS,
      ],
    };
  }

  /**
   * Requests still running when the server stops (their client may already be gone) finish their
   * queries before the pool closes, rather than failing on a closed pool; at most 5 s.
   */
  async onApplicationShutdown(): Promise<void> {
    // The replicas first: stopping the watcher announces an unknown version, which would start checks.
    if (this.reads instanceof ReadReplicas) await this.reads.stop();
    await this.dataVersion.stop();
    const deadline = Date.now() + 5000;
    if (this.reads instanceof ReadReplicas)
      await Promise.all(this.reads.dataSources().map((ds) => drain(ds, deadline)));
    await Promise.all([drain(this.ds, deadline), drainPool(this.background, deadline)]);
  }
}

/** Waits (until `deadline`) for the data source's running queries, then closes it. */
async function drain(ds: DataSource, deadline: number): Promise<void> {
  if (!ds.isInitialized) return;
  await settled(poolOf(ds), deadline);
  await ds.destroy();
}

/** Waits (until `deadline`) for the connections a job still holds, then closes the pool. */
async function drainPool(pool: Pool, deadline: number): Promise<void> {
  await settled(pool, deadline);
  await pool.end().catch(() => undefined);
}

async function settled(pool: Pool, deadline: number): Promise<void> {
  while (pool.totalCount > pool.idleCount && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
}

/**
 * The service's reads: the data source itself, or `ReadReplicas` over DATABASE_READ_URLS (each
 * with the primary's pool size and deadlines), checked from now on and shown in `/health`. A
 * replica that is down at boot is connected by its first successful check.
 */
async function readsFor(
  serviceName: string,
  ds: DataSource,
  versions: DataVersionWatcher,
  settings: DatabaseSettings,
  health: HealthDetails,
): Promise<ReadSource> {
  // Validated at boot (the service's environment): comma-separated connection strings.
  const urls = (settings.DATABASE_READ_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length === 0) return ds;
  const logger = new Logger('ReadReplicas');
  const connection = connectionOptions(settings);
  const replicas = new ReadReplicas(
    ds,
    urls.map((url) => ({
      name: replicaName(url),
      ds: createDataSource({ ...connection, url, applicationName: `${serviceName} replica` }),
      probe: new PgVersionProbe(url, connection.deadlines.connectMs, `${serviceName} replica check`),
    })),
    {
      versions,
      primarySystemIdentifier: () => systemIdentifierOf(ds),
      checkEveryMs: REPLICA_CHECK_MS,
      onError: (replica, error) =>
        logger.warn({ msg: 'read replica unavailable', replica, error: error.message }),
    },
  );
  // The floor rises with the primary's announcements: the watcher must run, cache or no cache.
  await versions.start();
  await replicas.start();
  // Numbered, not named: /health is open to probes; the metrics (admin port) name each replica.
  health.add('reads', () => {
    const routing = replicas.routing();
    return { ...routing, replicas: routing.replicas.map((r, i) => ({ ...r, name: `replica ${i + 1}` })) };
  });
  return replicas;
}

/**
 * A service's database in the shape `ServiceCoreModule` (`@tcg/http-service`, which may not import
 * persistence) takes it: the module (its variables read from the environment under `settings`),
 * the data source's pool and read routing readings, and the tokens of the data version and of
 * `/health`'s details.
 */
export function serviceDatabase(
  serviceName: string,
  settings: Type<DatabaseSettings>,
): {
  readonly module: DynamicModule;
  readonly pool: {
    readonly token: typeof DataSource;
    readonly usage: typeof poolUsage;
    readonly reads: {
      readonly token: symbol;
      readonly routing: (reads: ReadSource) => ReadRouting | undefined;
    };
    readonly cancellations: typeof onStatementCancelled;
  };
  readonly versions: symbol;
  readonly health: typeof HealthDetails;
  readonly report: typeof DatabaseHealth;
} {
  return {
    module: PersistenceModule.forService(serviceName, { settings }),
    pool: {
      token: DataSource,
      usage: poolUsage,
      reads: {
        token: READS,
        routing: (reads) => (reads instanceof ReadReplicas ? reads.routing() : undefined),
      },
      cancellations: onStatementCancelled,
    },
    versions: DATA_VERSION,
    health: HealthDetails,
    report: DatabaseHealth,
  };
}
