import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import { ErrorCode } from '@tcg/domain';
import { errorOutcome } from '@tcg/http-service';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '@tcg/persistence';
import type { Response } from 'express';
import { ErrorDto } from '../dto/error.dto';

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'INVALID_REQUEST',
  401: 'INVALID_API_KEY',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMIT_EXCEEDED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * Every error leaves api-v1 as `{ error, code }`, read by `errorOutcome`: a database that is down,
 * overloaded or past a deadline is a 503 with `Retry-After`; unknown errors are a generic 500.
 */
@Catch()
export class V1ExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('V1ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const outcome = errorOutcome(exception, databaseUnavailable, this.logger);
    const body: ErrorDto =
      outcome.message === undefined
        ? { error: 'Internal server error.', code: 'INTERNAL_ERROR' }
        : {
            error: outcome.message,
            code: outcome.code ?? CODE_BY_STATUS[outcome.status] ?? 'INVALID_REQUEST',
          };
    if (outcome.status === HttpStatus.SERVICE_UNAVAILABLE)
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    res.status(outcome.status).json(body);
  }
}
