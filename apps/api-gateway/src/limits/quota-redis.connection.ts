import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type Redis from 'ioredis';
import { once } from 'node:events';
import { createQuotaRedis } from './redis-quota.store';

/**
 * The gateway's one Redis connection (quotas and the auth-failure throttle), or none without
 * REDIS_URL (its database index included). Every command has a deadline
 * (REDIS_COMMAND_TIMEOUT_MS), connecting too (REDIS_CONNECT_TIMEOUT_MS), and nothing queues while
 * it is disconnected. `ready()` waits briefly for the first connection at boot, so requests do not
 * start in failover mode; an unreachable Redis at boot is not fatal (counting starts in memory).
 */
@Injectable()
export class QuotaRedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client?: Redis;

  constructor(@Inject(ConfigService) config: ConfigService) {
    const url = config.get<string>('REDIS_URL');
    if (url)
      this.client = createQuotaRedis(url, undefined, {
        commandTimeout: config.getOrThrow<number>('REDIS_COMMAND_TIMEOUT_MS'),
        connectTimeout: config.getOrThrow<number>('REDIS_CONNECT_TIMEOUT_MS'),
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
