import { Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DownloadLeaseRepository, QuotaCounterRepository } from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { QUOTA_STORE } from '../access/access.service';
import { Environment } from '../config/environment';
import {
  DownloadLeases,
  MemoryDownloadLeaseStore,
  PostgresDownloadLeaseStore,
  RedisDownloadLeaseStore,
} from './download-leases';
import { Failover, type FailoverLogger } from './failover';
import { FailoverQuotaStore } from './failover-quota.store';
import { MemoryQuotaStore } from './memory-quota.store';
import { PostgresQuotaStore } from './postgres-quota.store';
import { QuotaRedisConnection } from './quota-redis.connection';
import { RedisQuotaStore } from './redis-quota.store';

/** How often expired PostgreSQL counters are swept out. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Where the gateway's limits live: Redis when one is configured (REDIS_URL, or a cluster by
 * REDIS_CLUSTER_NODES or a `redis+cluster://` REDIS_URL), else PostgreSQL; either way with
 * this process's memory standing in while the shared store is away (one `Failover`, shared by the
 * quota store and the auth-failure throttle, so both agree on whether it is there).
 */
@Injectable()
export class Limits implements OnApplicationShutdown {
  private readonly logger = new Logger('Limits');
  readonly failover: Failover;
  readonly quotaStore: FailoverQuotaStore;
  /** Each key's downloads in progress across instances, in the same store as its quotas. */
  readonly downloads: DownloadLeases;
  private readonly sweeper?: NodeJS.Timeout;

  constructor(
    readonly redis: QuotaRedisConnection,
    ds: DataSource,
    env: Environment,
  ) {
    const log: FailoverLogger = (level, msg, fields) =>
      level === 'warn' ? this.logger.warn({ msg, ...fields }) : this.logger.log({ msg, ...fields });
    const client = redis.client;
    if (client) {
      const store = new RedisQuotaStore(client);
      this.failover = new Failover({
        name: 'redis',
        isReady: () => store.isReady(),
        probe: () => store.ping(),
        log,
        timeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
      });
      this.quotaStore = new FailoverQuotaStore(store, new MemoryQuotaStore(), this.failover);
      this.downloads = new DownloadLeases(
        new RedisDownloadLeaseStore(client),
        new MemoryDownloadLeaseStore(),
        this.failover,
        env.DOWNLOAD_LEASE_TTL_MS,
      );
    } else {
      const store = new PostgresQuotaStore(new QuotaCounterRepository(ds));
      this.failover = new Failover({
        name: 'postgres',
        isReady: () => ds.isInitialized,
        probe: () => ds.query('SELECT 1'),
        log,
        timeoutMs: env.QUOTA_DB_TIMEOUT_MS,
      });
      this.quotaStore = new FailoverQuotaStore(store, new MemoryQuotaStore(), this.failover);
      // Expired leases are expired counters: the sweep below removes them too.
      this.downloads = new DownloadLeases(
        new PostgresDownloadLeaseStore(new DownloadLeaseRepository(ds)),
        new MemoryDownloadLeaseStore(),
        this.failover,
        env.DOWNLOAD_LEASE_TTL_MS,
      );
      this.sweeper = setInterval(() => {
        store.sweep(Date.now()).catch(() => undefined); // an outage is the failover's to report
      }, SWEEP_INTERVAL_MS);
      this.sweeper.unref();
    }
  }

  /** Where limits are counted right now, for `/health/ready`. */
  status(): { store: 'redis' | 'postgres'; counting: 'redis' | 'postgres' | 'memory' } {
    const store = this.failover.name;
    return { store, counting: this.failover.usingSharedStore ? store : 'memory' };
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }
}

@Module({
  providers: [
    QuotaRedisConnection,
    {
      provide: Limits,
      inject: [QuotaRedisConnection, DataSource, Environment],
      useFactory: async (redis: QuotaRedisConnection, ds: DataSource, env: Environment) => {
        await redis.ready();
        return new Limits(redis, ds, env);
      },
    },
    { provide: QUOTA_STORE, inject: [Limits], useFactory: (limits: Limits) => limits.quotaStore },
  ],
  exports: [Limits, QUOTA_STORE],
})
export class LimitsModule {}
