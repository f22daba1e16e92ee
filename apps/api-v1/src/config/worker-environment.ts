import { IsOptional } from 'class-validator';
import { readServiceEnvironment } from '@tcg/http-service';
import { Environment } from './environment';

/**
 * The worker's variables: api-v1's (its jobs read the same BULK_* and ALERT_* ones, and the
 * deployment sets BULK_GENERATION and ALERT_SENDER on for it, off for the serving api-v1), with
 * what differs for a process that serves no request.
 */
export class WorkerEnvironment extends Environment {
  /** It serves no request, so it needs no gateway credential (one given is still checked, and unused). */
  @IsOptional()
  override INTERNAL_TOKEN!: string;

  /** Its admin port (`/metrics`, `/health`): beside the gateway's 9080, api-v1's 9081, api-v2's 9082. */
  override METRICS_PORT = 9083;

  /**
   * Its pool (and each replica's, with DATABASE_READ_URLS) serves the admin port's health check
   * and the bulk generation's reads, one statement at a time; the jobs write on the background
   * pool (one connection for the bulk generation, up to 5 for the alerts) and the data version
   * listener has its own.
   */
  override DATABASE_POOL_SIZE = 2;

  /** It answers no request: nothing to cache. */
  override RESPONSE_CACHE_MAX_BYTES = 0;
}

export function validateWorkerEnvironment(raw: Record<string, unknown>): WorkerEnvironment {
  return readServiceEnvironment(WorkerEnvironment, raw);
}
