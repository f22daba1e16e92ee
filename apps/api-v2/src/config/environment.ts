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

  /** Longest wait to open a database connection, or for a pooled one when all are busy. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  DATABASE_CONNECT_TIMEOUT_MS = 2_000;

  /**
   * Longest a statement may run (server-side `statement_timeout`); the client abandons it 1 s
   * later if the server does not answer at all. A lookup takes milliseconds.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_STATEMENT_TIMEOUT_MS = 5_000;

  /** The server ends a session idle inside a transaction this long, freeing its locks. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

  /**
   * How long an idle keep-alive connection from the gateway stays open. The gateway's pool must
   * close idle sockets sooner, or it may send a request on a socket this side is closing.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  SERVER_KEEP_ALIVE_TIMEOUT_MS = 30_000;

  /** Longest a client may take to send a request's headers. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(120_000)
  SERVER_HEADERS_TIMEOUT_MS = 10_000;

  /** Longest a client may take to send a whole request, body included; at least the headers'. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  SERVER_REQUEST_TIMEOUT_MS = 30_000;

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
  // Node refuses a headers timeout longer than the request timeout it is part of.
  if (env.SERVER_HEADERS_TIMEOUT_MS > env.SERVER_REQUEST_TIMEOUT_MS)
    throw new Error(
      'Invalid configuration: SERVER_HEADERS_TIMEOUT_MS must not exceed SERVER_REQUEST_TIMEOUT_MS',
    );
  // The count raises its own statement_timeout to the budget, but the client-side query deadline
  // (DATABASE_STATEMENT_TIMEOUT_MS + 1 s) still applies: past it a slow count would be a 503
  // rather than a null total.
  if (env.TOTAL_COUNT_BUDGET_MS > env.DATABASE_STATEMENT_TIMEOUT_MS)
    throw new Error(
      'Invalid configuration: TOTAL_COUNT_BUDGET_MS must not exceed DATABASE_STATEMENT_TIMEOUT_MS',
    );
  return env;
}
