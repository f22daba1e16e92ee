import type { IncomingMessage, ServerResponse } from 'node:http';
import { problemType } from '@tcg/http-service';
import { endLastAnswer, type LingerLimits } from './lingering-close';

/** For a refusal that closes the connection: the request, whose body may still be on the wire. */
export interface LastAnswer {
  readonly req: IncomingMessage;
  readonly linger: LingerLimits;
}

/**
 * Errors the gateway itself produces, in the shape of the API version the path names:
 * v2 gets RFC 7807 problem details, everything else the v1 `{ error, code }` body. With `last`,
 * the answer is its connection's last (see `endLastAnswer`).
 */
export function sendError(
  res: ServerResponse,
  path: string,
  status: number,
  code: string,
  message: string,
  docsUrl: string,
  last?: LastAnswer,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const isV2 = path === '/v2' || path.startsWith('/v2/');
  const body = isV2
    ? {
        type: problemType(docsUrl, code),
        title: titleOf(status),
        status,
        detail: message,
        code,
      }
    : { error: message, code };
  res.statusCode = status;
  if (last) res.setHeader('connection', 'close');
  res.setHeader(
    'content-type',
    isV2 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8',
  );
  if (last) endLastAnswer(last.req, res, JSON.stringify(body), last.linger);
  else res.end(JSON.stringify(body));
}

function titleOf(status: number): string {
  return (
    {
      400: 'Bad request',
      401: 'Unauthorized',
      404: 'Not found',
      413: 'Content too large',
      414: 'URI too long',
      429: 'Too many requests',
      502: 'Bad gateway',
      503: 'Service unavailable',
      504: 'Gateway timeout',
    }[status] ?? 'Error'
  );
}

/**
 * A bug's answer, wherever it escaped (the exception filter on Express's routes, the proxy's own
 * listener): logged with its stack, and a 500 that reveals nothing.
 */
export function sendInternalError(
  res: ServerResponse,
  path: string,
  docsUrl: string,
  logger: { error(message: unknown, stack?: string): void },
  error: unknown,
): void {
  logger.error({ msg: 'unhandled error', error: String(error) }, (error as Error)?.stack);
  sendError(res, path, 500, 'INTERNAL_ERROR', 'Internal server error.', docsUrl);
}
