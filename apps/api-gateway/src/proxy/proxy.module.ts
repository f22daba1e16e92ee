import { Logger, Module } from '@nestjs/common';
import { AccessService, QUOTA_STORE } from '../access/access.service';
import { ApiKeyCache } from '../access/api-key-cache.service';
import { AuthFailureThrottle } from '../access/auth-failure-throttle.service';
import { FailoverQuotaStore } from '../limits/failover-quota.store';
import { MemoryQuotaStore } from '../limits/memory-quota.store';
import { QuotaRedisConnection } from '../limits/quota-redis.connection';
import { RedisQuotaStore } from '../limits/redis-quota.store';
import { ProxyController } from './proxy.controller';
import { ProxyService } from './proxy.service';

@Module({
  controllers: [ProxyController],
  providers: [
    ProxyService,
    AccessService,
    ApiKeyCache,
    AuthFailureThrottle,
    QuotaRedisConnection,
    {
      // Redis when REDIS_URL is set (falling back to memory while it is unreachable); memory otherwise.
      provide: QUOTA_STORE,
      inject: [QuotaRedisConnection],
      useFactory: async (redis: QuotaRedisConnection) => {
        const logger = new Logger('Quotas');
        if (!redis.client) {
          logger.log({ msg: 'REDIS_URL not set: quotas counted in memory, per instance' });
          return new MemoryQuotaStore();
        }
        await redis.ready();
        return new FailoverQuotaStore(
          new RedisQuotaStore(redis.client),
          new MemoryQuotaStore(),
          (level, msg, fields) =>
            level === 'warn' ? logger.warn({ msg, ...fields }) : logger.log({ msg, ...fields }),
        );
      },
    },
  ],
})
export class ProxyModule {}
