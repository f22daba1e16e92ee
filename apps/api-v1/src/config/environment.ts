import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { readServiceEnvironment, ServiceEnvironment } from '@tcg/http-service';

/**
 * Every variable this service reads; validated once at boot (see .env.example). The shared ones
 * (database, gateway credential, server timeouts, log level) are in ServiceEnvironment.
 */
export class Environment extends ServiceEnvironment {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 8081;

  /** The admin port of `/metrics` (on METRICS_HOST); 0: no metrics served. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT = 9081;
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  return readServiceEnvironment(Environment, raw);
}
