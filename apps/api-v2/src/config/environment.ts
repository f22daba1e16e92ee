import 'reflect-metadata';
import { IsOptional, IsString, MinLength } from 'class-validator';
import { IsIntBetween, readServiceEnvironment, ServiceEnvironment } from '@tcg/http-service';

/**
 * Every variable this service reads; validated once at boot (see .env.example). The shared ones
 * (database, gateway credential, server timeouts, log level, the ports' bounds) are in ServiceEnvironment.
 */
export class Environment extends ServiceEnvironment {
  override PORT = 8082;
  override METRICS_PORT = 9082;

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
  @IsIntBetween(0, 10_000)
  TOTAL_COUNT_BUDGET_MS = 250;
}

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const env = readServiceEnvironment(Environment, raw);
  // The count raises its own statement_timeout to the budget, but the client-side query deadline
  // (DATABASE_STATEMENT_TIMEOUT_MS + 1 s) still applies: past it a slow count would be a 503
  // rather than a null total.
  if (env.TOTAL_COUNT_BUDGET_MS > env.DATABASE_STATEMENT_TIMEOUT_MS)
    throw new Error(
      'Invalid configuration: TOTAL_COUNT_BUDGET_MS must not exceed DATABASE_STATEMENT_TIMEOUT_MS',
    );
  return env;
}
