import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { AccessService } from '../access/access.service';
import { ApiKeyCache } from '../access/api-key-cache.service';
import { AuthFailureThrottle } from '../access/auth-failure-throttle.service';
import { GatewayMetrics } from '../common/gateway-metrics';
import { Limits, LimitsModule } from '../limits/limits.module';
import { ProxyController } from './proxy.controller';
import { ProxyService } from './proxy.service';

@Module({
  imports: [LimitsModule],
  controllers: [ProxyController],
  providers: [
    GatewayMetrics,
    ProxyService,
    AccessService,
    {
      provide: ApiKeyCache,
      inject: [DataSource, ConfigService, GatewayMetrics],
      useFactory: (ds: DataSource, config: ConfigService, metrics: GatewayMetrics) => {
        const repo = new TypeOrmApiKeyRepository(ds);
        return new ApiKeyCache((hash) => repo.findActiveByHash(hash), {
          ttlMs: config.getOrThrow<number>('KEY_CACHE_TTL_MS'),
          staleMs: config.getOrThrow<number>('KEY_CACHE_STALE_MS'),
          lookupTimeoutMs: config.getOrThrow<number>('KEY_LOOKUP_TIMEOUT_MS'),
          onLookup: (result) => metrics.keyLookup(result),
        });
      },
    },
    {
      provide: AuthFailureThrottle,
      inject: [Limits, ConfigService],
      useFactory: (limits: Limits, config: ConfigService) =>
        new AuthFailureThrottle(
          config.getOrThrow<number>('AUTH_FAILURES_PER_MINUTE'),
          limits.redis.client,
          limits.redis.client ? limits.failover : undefined,
        ),
    },
  ],
})
export class ProxyModule {}
