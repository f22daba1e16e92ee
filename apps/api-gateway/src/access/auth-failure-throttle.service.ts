import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { createQuotaRedis } from '../limits/redis-quota.store';

const WINDOW_MS = 60_000;

/**
 * Slows down one client address that keeps sending missing or invalid keys: past
 * AUTH_FAILURES_PER_MINUTE failures it gets 429s for a minute instead of a free oracle for key
 * guesses. Counted in @nestjs/throttler's storage: Redis-backed (shared by every gateway
 * instance) when REDIS_URL is set, with the in-memory storage while Redis is unreachable.
 */
@Injectable()
export class AuthFailureThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger('AuthFailureThrottle');
  private readonly memory = new ThrottlerStorageService();
  private readonly redis?: ThrottlerStorage & { onModuleDestroy(): void };
  private readonly limit: number;
  private redisFailing = false;

  constructor(@Inject(ConfigService) config: ConfigService) {
    this.limit = config.getOrThrow<number>('AUTH_FAILURES_PER_MINUTE');
    const url = config.get<string>('REDIS_URL');
    if (url) this.redis = new ThrottlerStorageRedisService(createQuotaRedis(url));
  }

  /** Counts one failure; returns the seconds to wait when the address is now blocked. */
  async recordFailure(clientAddress: string): Promise<number | undefined> {
    const key = `auth-failures:${clientAddress}`;
    let record;
    try {
      record = this.redis
        ? await this.redis.increment(key, WINDOW_MS, this.limit, WINDOW_MS, 'auth-failures')
        : await this.memory.increment(key, WINDOW_MS, this.limit, WINDOW_MS, 'auth-failures');
      if (this.redisFailing) {
        this.redisFailing = false;
        this.logger.log({ msg: 'Redis is back: auth failures counted in Redis again' });
      }
    } catch (error) {
      if (!this.redisFailing) {
        this.redisFailing = true;
        this.logger.warn({ msg: 'Redis unreachable: auth failures counted in memory', error: String(error) });
      }
      record = await this.memory.increment(key, WINDOW_MS, this.limit, WINDOW_MS, 'auth-failures');
    }
    return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : undefined;
  }

  onApplicationShutdown(): void {
    this.memory.onApplicationShutdown();
    this.redis?.onModuleDestroy();
  }
}
