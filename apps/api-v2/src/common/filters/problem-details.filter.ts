import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import { ErrorCode } from '@tcg/domain';
import { errorOutcome, problemType } from '@tcg/http-service';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '@tcg/persistence';
import type { Response } from 'express';
import { Environment } from '../../config/environment';
import { ProblemDetailsDto } from '../dto/problem-details.dto';

const BY_STATUS: Record<number, { code: ErrorCode; title: string }> = {
  400: { code: 'INVALID_REQUEST', title: 'Invalid request' },
  401: { code: 'INVALID_API_KEY', title: 'Unauthorized' },
  403: { code: 'FORBIDDEN', title: 'Forbidden' },
  404: { code: 'NOT_FOUND', title: 'Not found' },
  413: { code: 'PAYLOAD_TOO_LARGE', title: 'Payload too large' },
  415: { code: 'INVALID_REQUEST', title: 'Unsupported media type' },
  429: { code: 'RATE_LIMIT_EXCEEDED', title: 'Too many requests' },
  500: { code: 'INTERNAL_ERROR', title: 'Internal server error' },
  503: { code: 'SERVICE_UNAVAILABLE', title: 'Service unavailable' },
};

/**
 * Every error leaves api-v2 as RFC 7807 `application/problem+json`, read by `errorOutcome`: a
 * database that is down, overloaded or past a deadline is a 503 with `Retry-After`; unknown errors
 * are a generic 500.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetailsFilter');

  constructor(private readonly env: Environment) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, code, message } = errorOutcome(exception, databaseUnavailable, this.logger);
    const detail = message ?? 'An unexpected error occurred.';
    const kind = BY_STATUS[status] ?? BY_STATUS[status >= 500 ? 500 : 400]!;
    if (status === HttpStatus.SERVICE_UNAVAILABLE)
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    res
      .status(status)
      .type('application/problem+json')
      .json({
        type: problemType(this.env.DOCS_URL, code ?? kind.code),
        title: kind.title,
        status,
        detail,
        code: code ?? kind.code,
      } satisfies ProblemDetailsDto);
  }
}
