import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength, validateSync } from 'class-validator';

/** Every variable the gateway reads; validated once at boot (see .env.example). */
export class Environment {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 8080;

  @IsOptional()
  @IsString()
  HOST = '0.0.0.0';

  /** Where API keys live (hashed). */
  @IsString()
  DATABASE_URL!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  DATABASE_POOL_SIZE = 4;

  /** Redis for quotas and the auth-failure throttle; unset: per-instance in-memory counters. */
  @IsOptional()
  @IsString()
  REDIS_URL?: string;

  /** The credential the gateway presents to the services. */
  @IsString()
  @MinLength(16)
  INTERNAL_TOKEN!: string;

  /** How long a key lookup is cached: a revoked key stops working within this time. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  KEY_CACHE_TTL_MS = 5_000;

  /** Missing or invalid keys one client address may send per minute before it gets 429s. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  AUTH_FAILURES_PER_MINUTE = 30;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http'] })
  API_V1_URL = 'http://127.0.0.1:8081';

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http'] })
  API_V2_URL = 'http://127.0.0.1:8082';

  /** How long an upstream may take before the client gets a 504. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120_000)
  UPSTREAM_TIMEOUT_MS = 10_000;

  /** Base address of the problem-type documentation, for the gateway's own v2 errors. */
  @IsOptional()
  @IsString()
  DOCS_URL = 'https://docs.example.com/errors';

  @IsOptional()
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const env = plainToInstance(Environment, raw, { exposeDefaultValues: true });
  const errors = validateSync(env);
  if (errors.length > 0) {
    const detail = errors
      .map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`)
      .join('; ');
    throw new Error(`Invalid configuration: ${detail}`);
  }
  return env;
}
