import type { ProblemDetails, V1ErrorBody } from './types.js';

/** Every error the client throws is one of these; `instanceof TcgError` catches them all. */
export class TcgError extends Error {
  override readonly name: string = 'TcgError';
}

/** Which kind of answer a `TcgApiError` is, for a `switch` instead of `instanceof`. */
export type TcgApiErrorKind =
  'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'server' | 'other';

export interface TcgApiErrorInit {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** v1 `{ error, code }`, v2 RFC 7807 problem, or the text of an answer that was not JSON. */
  readonly body: V1ErrorBody | ProblemDetails | string | undefined;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
}

/** The API answered with a status other than 2xx. */
export class TcgApiError extends TcgError {
  override readonly name: string = 'TcgApiError';
  readonly kind: TcgApiErrorKind = 'other';
  readonly status: number;
  /** The stable code of the body (`INVALID_REQUEST`, `NOT_FOUND`, …); `HTTP_<status>` when it had none. */
  readonly code: string;
  readonly body: V1ErrorBody | ProblemDetails | string | undefined;
  readonly method: string;
  /** The path and query asked for, without the base URL. */
  readonly path: string;
  /** The gateway's `X-Request-Id`, to quote when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds the answer's `Retry-After` asked to wait (429 and 503 carry one); undefined without. */
  readonly retryAfter: number | undefined;

  constructor(init: TcgApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/** 400: a parameter or the body was refused; `message` names it and what is accepted. */
export class TcgBadRequestError extends TcgApiError {
  override readonly name = 'TcgBadRequestError';
  override readonly kind = 'bad_request';
}

/** 401: no key, or a key that is not valid. */
export class TcgUnauthorizedError extends TcgApiError {
  override readonly name = 'TcgUnauthorizedError';
  override readonly kind = 'unauthorized';
}

/** 403: the plan does not allow it (for example a key's alert cap). */
export class TcgForbiddenError extends TcgApiError {
  override readonly name = 'TcgForbiddenError';
  override readonly kind = 'forbidden';
}

/** 404: no such card, alert, … for this key. */
export class TcgNotFoundError extends TcgApiError {
  override readonly name = 'TcgNotFoundError';
  override readonly kind = 'not_found';
}

/** 429: a quota or the requests-at-once cap; `retryAfter` says when to come back. Costs nothing. */
export class TcgRateLimitError extends TcgApiError {
  override readonly name = 'TcgRateLimitError';
  override readonly kind = 'rate_limited';
}

/** 5xx: the service or the gateway failed (503 and 504 carry `retryAfter`). */
export class TcgServerError extends TcgApiError {
  override readonly name = 'TcgServerError';
  override readonly kind = 'server';
}

/** No answer: the connection failed or broke (`cause` is what `fetch` threw). */
export class TcgNetworkError extends TcgError {
  override readonly name = 'TcgNetworkError';
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** No whole answer within the call's `timeoutMs`. */
export class TcgTimeoutError extends TcgError {
  override readonly name = 'TcgTimeoutError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path} got no answer within ${timeoutMs} ms`);
  }
}

/** The answer's body is longer than the client's `maxResponseBytes`; the rest was not read. */
export class TcgResponseTooLargeError extends TcgError {
  override readonly name = 'TcgResponseTooLargeError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly maxResponseBytes: number,
  ) {
    super(`${method} ${path} answered more than ${maxResponseBytes} bytes`);
  }
}

/** The caller's own `signal` was aborted; `cause` is its reason. */
export class TcgAbortError extends TcgError {
  override readonly name = 'TcgAbortError';
  constructor(
    readonly method: string,
    readonly path: string,
    options: { cause: unknown },
  ) {
    super(`${method} ${path} was aborted by the caller`, options);
  }
}

/** The class for a status: one of the subclasses, else the base. */
export function apiErrorFor(init: TcgApiErrorInit): TcgApiError {
  const { status } = init;
  if (status === 400) return new TcgBadRequestError(init);
  if (status === 401) return new TcgUnauthorizedError(init);
  if (status === 403) return new TcgForbiddenError(init);
  if (status === 404) return new TcgNotFoundError(init);
  if (status === 429) return new TcgRateLimitError(init);
  if (status >= 500 && status <= 599) return new TcgServerError(init);
  return new TcgApiError(init);
}
