import { Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AccessService, QUOTA_STORE } from '../access/access.service';
import { ApiKeyCache } from '../access/api-key-cache.service';
import { AuthFailureThrottle } from '../access/auth-failure-throttle.service';
import { FailoverQuotaStore } from '../limits/failover-quota.store';
import { MemoryQuotaStore } from '../limits/memory-quota.store';
import { createQuotaRedis, RedisQuotaStore } from '../limits/redis-quota.store';
import { ProxyController } from './proxy.controller';
import { ProxyService } from './proxy.service';

@Module({
  controllers: [ProxyController],
  providers: [
    ProxyService,
    AccessService,
    ApiKeyCache,
    AuthFailureThrottle,
    {
      // Redis when REDIS_URL is set (falling back to memory while it is unreachable); memory otherwise.
      provide: QUOTA_STORE,
      inject: [ConfigService],
      useFactory: (config: ConfigService) => {
        const url = config.get<string>('REDIS_URL');
        const logger = new Logger('Quotas');
        if (!url) {
          logger.log({ msg: 'REDIS_URL not set: quotas counted in memory, per instance' });
          return new MemoryQuotaStore();
        }
        return new FailoverQuotaStore(new RedisQuotaStore(createQuotaRedis(url)), new MemoryQuotaStore(), (level, msg, fields) =>
          level === 'warn' ? logger.warn({ msg, ...fields }) : logger.log({ msg, ...fields }),
        );
      },
    },
  ],
})
export class ProxyModule {}
