import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { ApiKeyRepository } from '@tcg/domain';
import { API_KEYS } from '@tcg/persistence/nest';
import { AccessService } from '../access/access.service';
import { ApiKeyCache } from '../access/api-key-cache.service';
import { AuthFailureThrottle } from '../access/auth-failure-throttle.service';
import { ClientAddressResolver, parseTrustedProxies, type ProxyHeader } from '../access/client-address';
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
      inject: [API_KEYS, ConfigService, GatewayMetrics],
      useFactory: (keys: ApiKeyRepository, config: ConfigService, metrics: GatewayMetrics) => {
        return new ApiKeyCache((hash) => keys.findActiveByHash(hash), {
          ttlMs: config.getOrThrow<number>('KEY_CACHE_TTL_MS'),
          staleMs: config.getOrThrow<number>('KEY_CACHE_STALE_MS'),
          lookupTimeoutMs: config.getOrThrow<number>('KEY_LOOKUP_TIMEOUT_MS'),
          onLookup: (result) => metrics.keyLookup(result),
        });
      },
    },
    {
      provide: ClientAddressResolver,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        new ClientAddressResolver(
          parseTrustedProxies(config.get<string>('TRUSTED_PROXIES')),
          config.getOrThrow<ProxyHeader>('TRUSTED_PROXY_HEADER'),
        ),
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
