import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { once } from 'node:events';
import { Environment } from '../config/environment';
import { createQuotaRedisClient, type QuotaRedisClient } from './redis-quota.store';
import { parseRedisTarget } from './redis-target';

/**
 * The gateway's one Redis client (quotas and the auth-failure throttle): a server (REDIS_URL, its
 * database index included), a cluster (REDIS_CLUSTER_NODES, or a `redis+cluster://` REDIS_URL), or
 * none. Every command has a deadline (REDIS_COMMAND_TIMEOUT_MS), connecting too
 * (REDIS_CONNECT_TIMEOUT_MS), and nothing queues while it is disconnected. `ready()` waits briefly
 * for the first connection at boot, so requests do not start in failover mode; an unreachable Redis
 * at boot is not fatal (counting starts in memory).
 */
@Injectable()
export class QuotaRedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client?: QuotaRedisClient;

  constructor(env: Environment) {
    // Validated at boot (validateEnvironment), so this does not throw here.
    const target = parseRedisTarget(env);
    if (target)
      this.client = createQuotaRedisClient(target, {
        commandTimeout: env.REDIS_COMMAND_TIMEOUT_MS,
        connectTimeout: env.REDIS_CONNECT_TIMEOUT_MS,
      });
  }

  async ready(timeoutMs = 1_500): Promise<void> {
    if (!this.client || this.client.status === 'ready') return;
    try {
      await once(this.client, 'ready', { signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      this.logger.warn({ msg: 'Redis not reachable at boot: counting in memory until it is' });
    }
  }

  onApplicationShutdown(): void {
    this.client?.disconnect();
  }
}
