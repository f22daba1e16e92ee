import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength, validateSync } from 'class-validator';

/** Every variable this service reads; validated once at boot (see .env.example). */
export class Environment {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 8082;

  @IsOptional()
  @IsString()
  HOST = '127.0.0.1';

  @IsString()
  DATABASE_URL!: string;

  /** The gateway's shared credential; requests without it are refused. */
  @IsString()
  @MinLength(16)
  INTERNAL_TOKEN!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /** Base address of the problem-type documentation (`type` is `{DOCS_URL}#<slug>`). */
  @IsOptional()
  @IsString()
  DOCS_URL = 'https://docs.example.com/errors';

  /**
   * Key that seals pagination cursors; every instance behind the gateway needs the same one.
   * Unset: derived from INTERNAL_TOKEN, which they already share.
   */
  @IsOptional()
  @IsString()
  @MinLength(16)
  CURSOR_SECRET?: string;

  /** Time a page may spend counting its total; past it `meta.total` is null. 0: never count. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000)
  TOTAL_COUNT_BUDGET_MS = 250;

  @IsOptional()
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const env = plainToInstance(Environment, raw, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  if (errors.length > 0) {
    const detail = errors
      .map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`)
      .join('; ');
    throw new Error(`Invalid configuration: ${detail}`);
  }
  return env;
}
