import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { DomainError, ErrorCode } from '@tcg/domain';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '@tcg/persistence';
import type { Response } from 'express';
import { ErrorDto } from '../dto/error.dto';
import { bodyRefusal } from '@tcg/http-service';

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
 * Every error leaves api-v1 as `{ error, code }`. A database that is down, overloaded or past a
 * deadline is a 503 with `Retry-After` (the driver's words stay in the log); unknown errors are a
 * generic 500, logged with their stack.
 */
@Catch()
export class V1ExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('V1ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    let status: number = HttpStatus.INTERNAL_SERVER_ERROR;
    let body: ErrorDto = { error: 'Internal server error.', code: 'INTERNAL_ERROR' };
    const refusal = bodyRefusal(exception);
    if (exception instanceof DomainError) {
      status = exception.status;
      body = { error: exception.message, code: exception.code };
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      body = { error: messageOf(exception), code: CODE_BY_STATUS[status] ?? 'INVALID_REQUEST' };
    } else if (refusal) {
      status = refusal.status;
      body = { error: refusal.message, code: refusal.code };
    } else if (databaseUnavailable(exception)) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      body = { error: 'The database is unavailable. Retry shortly.', code: 'SERVICE_UNAVAILABLE' };
      this.logger.warn({ msg: 'database unavailable', error: String(exception) });
    } else {
      this.logger.error({ msg: 'unhandled error', error: String(exception) }, (exception as Error)?.stack);
    }
    if (status === HttpStatus.SERVICE_UNAVAILABLE)
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    res.status(status).json(body);
  }
}

function messageOf(e: HttpException): string {
  const r = e.getResponse();
  if (typeof r === 'string') return r;
  const m = (r as { message?: unknown }).message;
  return Array.isArray(m) ? m.join('; ') : typeof m === 'string' ? m : e.message;
}
