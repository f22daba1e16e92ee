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
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { createDataSource, poolOf, poolUsage } from '../lib/data-source';
import { DataVersionWatcher } from '../lib/data-version';
import { TypeOrmApiKeyRepository } from '../lib/repositories/api-key.repository';
import { CardKeysetRepository } from '../lib/repositories/card-keyset.repository';
import { CardQueryRepository } from '../lib/repositories/card-query.repository';
import { TypeOrmCatalogueRepository } from '../lib/repositories/catalogue.repository';

const SERVICE_NAME = Symbol('SERVICE_NAME');

/** The service's `DataVersionSource` (a `DataVersionWatcher` on the service's database). */
export const DATA_VERSION = Symbol('DATA_VERSION');

/** The `CatalogueRepository` port (`@tcg/domain`), bound to PostgreSQL: inject with `@Inject(CATALOGUE)`. */
export const CATALOGUE = Symbol('CatalogueRepository');

/** The `ApiKeyRepository` port (`@tcg/domain`), bound to PostgreSQL: inject with `@Inject(API_KEYS)`. */
export const API_KEYS = Symbol('ApiKeyRepository');

/**
 * The `RenderedCardReads` port (`@tcg/domain`'s `CardReads` in `@tcg/rendering`'s types), bound to
 * `CardQueryRepository`: inject with `@Inject(CARD_READS)`.
 */
export const CARD_READS = Symbol('CardReads');

/** The `CardKeysetReads` port (`@tcg/domain`), bound to `CardKeysetRepository`: `@Inject(CARD_KEYSET_READS)`. */
export const CARD_KEYSET_READS = Symbol('CardKeysetReads');

/** A provider of `provide` built once per app on the service's data source. */
function onDataSource(
  provide: symbol | (abstract new (...args: never[]) => unknown),
  Repository: new (ds: DataSource) => unknown,
): Provider {
  return { provide, inject: [DataSource], useFactory: (ds: DataSource) => new Repository(ds) };
}

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

@Controller('health')
class DatabaseHealthController {
  constructor(
    private readonly ds: DataSource,
    @Inject(SERVICE_NAME) private readonly service: string,
    @Inject(DATA_VERSION) private readonly dataVersion: DataVersionWatcher,
    private readonly details: HealthDetails,
  ) {}

  /**
   * Liveness and database reachability (the gateway reports it and needs no API key for it), the
   * data version this service answers under, and what the app adds (its response cache).
   */
  @Get()
  async health(): Promise<Record<string, unknown> & { status: 'ok'; service: string; database: 'up' }> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error('health check deadline')), HEALTH_DEADLINE_MS);
    });
    try {
      await Promise.race([this.ds.query('SELECT 1'), deadline]);
    } catch {
      throw new ServiceUnavailableException('database unreachable');
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
  ) {}

  /** `health: false` leaves `/health` to the app (the gateway reports its services instead). */
  static forService(serviceName: string, options: { health?: boolean } = {}): DynamicModule {
    return {
      module: PersistenceModule,
      controllers: options.health === false ? [] : [DatabaseHealthController],
      providers: [
        { provide: SERVICE_NAME, useValue: serviceName },
        HealthDetails,
        {
          provide: DataSource,
          inject: [ConfigService],
          useFactory: (config: ConfigService) =>
            createDataSource({
              url: config.getOrThrow<string>('DATABASE_URL'),
              poolSize: config.get<number>('DATABASE_POOL_SIZE'),
              applicationName: serviceName,
              deadlines: {
                connectMs: config.getOrThrow<number>('DATABASE_CONNECT_TIMEOUT_MS'),
                statementMs: config.getOrThrow<number>('DATABASE_STATEMENT_TIMEOUT_MS'),
                idleInTransactionMs: config.getOrThrow<number>('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
              },
            }).initialize(),
        },
        {
          provide: DATA_VERSION,
          inject: [ConfigService],
          // Not connected until a user calls start(): the gateway, which caches nothing, never does.
          useFactory: (config: ConfigService) => {
            const logger = new Logger('DataVersion');
            return new DataVersionWatcher({
              url: config.getOrThrow<string>('DATABASE_URL'),
              applicationName: serviceName,
              timeoutMs: config.getOrThrow<number>('DATABASE_CONNECT_TIMEOUT_MS'),
              onError: (error) => logger.warn({ msg: 'data version unknown', error: error.message }),
            });
          },
        },
        // The ports under their tokens. The card reads' hand-written SQL (hot paths) is injected
        // as the object itself: the port adds no layer to a request.
        onDataSource(CATALOGUE, TypeOrmCatalogueRepository),
        onDataSource(API_KEYS, TypeOrmApiKeyRepository),
        onDataSource(CARD_READS, CardQueryRepository),
        onDataSource(CARD_KEYSET_READS, CardKeysetRepository),
      ],
      exports: [DataSource, DATA_VERSION, HealthDetails, CATALOGUE, API_KEYS, CARD_READS, CARD_KEYSET_READS],
    };
  }

  /**
   * Requests still running when the server stops (their client may already be gone) finish their
   * queries before the pool closes, rather than failing on a closed pool; at most 5 s.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.dataVersion.stop();
    if (!this.ds.isInitialized) return;
    const pool = poolOf(this.ds);
    const deadline = Date.now() + 5000;
    while (pool.totalCount > pool.idleCount && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await this.ds.destroy();
  }
}

/**
 * A service's database in the shape `ServiceCoreModule` (`@tcg/http-service`, which may not import
 * persistence) takes it: the module, the data source's pool reading, and the tokens of the data
 * version and of `/health`'s details.
 */
export function serviceDatabase(serviceName: string): {
  readonly module: DynamicModule;
  readonly pool: { readonly token: typeof DataSource; readonly usage: typeof poolUsage };
  readonly versions: symbol;
  readonly health: typeof HealthDetails;
} {
  return {
    module: PersistenceModule.forService(serviceName),
    pool: { token: DataSource, usage: poolUsage },
    versions: DATA_VERSION,
    health: HealthDetails,
  };
}
