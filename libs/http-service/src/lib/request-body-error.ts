import { ErrorCode } from '@tcg/domain';

/** A refusal of the request body by Express's body parser, as a client should see it. */
export interface BodyRefusal {
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * Express's body parser fails a request with an `http-errors` object carrying `status` and a
 * `type`; these never reach a controller, so the filter is the only place to say what they mean.
 * The parser's own messages are not echoed: ours name what was wrong and what is accepted.
 */
export function bodyRefusal(exception: unknown): BodyRefusal | undefined {
  if (typeof exception !== 'object' || exception === null) return undefined;
  const e = exception as { type?: unknown; status?: unknown; statusCode?: unknown; limit?: unknown };
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  if (typeof e.type !== 'string' || typeof status !== 'number' || status < 400 || status >= 500)
    return undefined;
  switch (e.type) {
    case 'entity.too.large':
      return {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message:
          typeof e.limit === 'number'
            ? `The request body is too large. Accepted: at most ${e.limit} bytes.`
            : 'The request body is too large.',
      };
    case 'parameters.too.many':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body has too many parameters.' };
    case 'entity.parse.failed':
      return { status: 400, code: 'INVALID_REQUEST', message: 'The request body is not valid JSON.' };
    case 'charset.unsupported':
      return {
        status: 415,
        code: 'INVALID_REQUEST',
        message: "Unsupported charset in 'Content-Type'. Accepted: utf-8.",
      };
    case 'encoding.unsupported':
      return {
        status: 415,
        code: 'INVALID_REQUEST',
        message: "Unsupported 'Content-Encoding'. Accepted: identity, gzip, deflate, br.",
      };
    case 'request.size.invalid':
      return {
        status: 400,
        code: 'INVALID_REQUEST',
        message: "The request body's length does not match its 'Content-Length'.",
      };
    default:
      return { status, code: 'INVALID_REQUEST', message: 'The request body could not be read.' };
  }
}
