import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { readServiceEnvironment, ServiceEnvironment } from '@tcg/http-service';

/**
 * Every variable this service reads; validated once at boot (see .env.example). The shared ones
 * (database, gateway credential, server timeouts, log level, the ports' bounds) are in ServiceEnvironment.
 */
export class Environment extends ServiceEnvironment {
  override PORT = 8081;
  override METRICS_PORT = 9081;

  /**
   * Whether this instance writes the bulk snapshots in the background (`off`: another instance or
   * a scheduled `npm run bulk` does). Instances share the work through a lock: one writes at a time.
   */
  @IsOptional()
  @IsIn(['on', 'off'])
  BULK_GENERATION: 'on' | 'off' = 'on';

  /** How long the data version must stay still (an import's last batch committed) before a generation. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  BULK_SETTLE_MS = 10_000;

  /** Snapshots older than this are written again even when the data has not changed (daily). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 30)
  BULK_MAX_AGE_HOURS = 24;
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  return readServiceEnvironment(Environment, raw);
}
