import { Module } from '@nestjs/common';
import { API_KEYS, type ApiKeyRepository } from '@tcg/persistence';
import { AccessService } from '../access/access.service';
import { ApiKeyCache } from '../access/api-key-cache.service';
import { AuthFailureThrottle } from '../access/auth-failure-throttle.service';
import { ClientAddressResolver, parseTrustedProxies } from '../access/client-address';
import { GatewayMetrics } from '../common/gateway-metrics';
import { Environment } from '../config/environment';
import { Limits, LimitsModule } from '../limits/limits.module';
import { ProxyService } from './proxy.service';

@Module({
  imports: [LimitsModule],
  providers: [
    GatewayMetrics,
    ProxyService,
    AccessService,
    {
      provide: ApiKeyCache,
      inject: [API_KEYS, Environment, GatewayMetrics],
      useFactory: (keys: ApiKeyRepository, env: Environment, metrics: GatewayMetrics) => {
        return new ApiKeyCache(keys, {
          ttlMs: env.KEY_CACHE_TTL_MS,
          staleMs: env.KEY_CACHE_STALE_MS,
          lookupTimeoutMs: env.KEY_LOOKUP_TIMEOUT_MS,
          onLookup: (result) => metrics.keyLookup(result),
        });
      },
    },
    {
      provide: ClientAddressResolver,
      inject: [Environment],
      useFactory: (env: Environment) =>
        new ClientAddressResolver(parseTrustedProxies(env.TRUSTED_PROXIES), env.TRUSTED_PROXY_HEADER),
    },
    {
      provide: AuthFailureThrottle,
      inject: [Limits, Environment],
      useFactory: (limits: Limits, env: Environment) =>
        new AuthFailureThrottle(
          env.AUTH_FAILURES_PER_MINUTE,
          limits.redis.client,
          limits.redis.client ? limits.failover : undefined,
        ),
    },
  ],
  // The legacy keys' state, for readiness.
  exports: [AccessService],
})
export class ProxyModule {}
