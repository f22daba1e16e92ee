import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { QuotaRedisConnection } from '../limits/quota-redis.connection';

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
  private readonly redis?: ThrottlerStorage;
  private readonly limit: number;
  private redisFailing = false;

  constructor(@Inject(ConfigService) config: ConfigService, connection: QuotaRedisConnection) {
    this.limit = config.getOrThrow<number>('AUTH_FAILURES_PER_MINUTE');
    // Shares the gateway's Redis connection, which QuotaRedisConnection closes on shutdown.
    if (connection.client) this.redis = new ThrottlerStorageRedisService(connection.client);
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
  }
}
