import { HttpException, type Logger } from '@nestjs/common';
import { DomainError, type ErrorCode } from '@tcg/domain';
import { bodyRefusal } from './request-body-error';

/** What a service answers to an exception, before its version's filter gives it a body. */
export interface ErrorOutcome {
  readonly status: number;
  /** When the error names its code; otherwise the version derives one from the status. */
  readonly code?: ErrorCode;
  /** Absent for an unexpected error, which each version words in its own generic way. */
  readonly message?: string;
}

const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Retry shortly.';

/**
 * The one reading of an exception that both versions' filters share: a domain error or Nest's
 * HTTP exception as it says; a body the parser refused (`bodyRefusal`); a database that is down,
 * overloaded or past a deadline (`isDatabaseUnavailable`, from persistence) is a 503 whose driver
 * message stays in the log; anything else is an unexpected 500, logged with its stack.
 */
export function errorOutcome(
  exception: unknown,
  isDatabaseUnavailable: (error: unknown) => boolean,
  logger: Pick<Logger, 'warn' | 'error'>,
): ErrorOutcome {
  if (exception instanceof DomainError)
    return { status: exception.status, code: exception.code, message: exception.message };
  if (exception instanceof HttpException)
    return { status: exception.getStatus(), message: messageOf(exception) };
  const refusal = bodyRefusal(exception);
  if (refusal) return refusal;
  if (isDatabaseUnavailable(exception)) {
    logger.warn({ msg: 'database unavailable', error: String(exception) });
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: DATABASE_UNAVAILABLE_MESSAGE };
  }
  logger.error({ msg: 'unhandled error', error: String(exception) }, (exception as Error)?.stack);
  return { status: 500 };
}

function messageOf(e: HttpException): string {
  const r = e.getResponse();
  if (typeof r === 'string') return r;
  const m = (r as { message?: unknown }).message;
  return Array.isArray(m) ? m.join('; ') : typeof m === 'string' ? m : e.message;
}
