/** Stable error codes shared by both API versions (interface.md "Codes" plus NOT_FOUND). */
export const ERROR_CODES = [
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'INVALID_REQUEST',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMIT_EXCEEDED',
  'DAILY_LIMIT_EXCEEDED',
  'REQUEST_LIMIT_EXCEEDED',
  'SERVICE_UNAVAILABLE',
  'GATEWAY_TIMEOUT',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const STATUS: Record<ErrorCode, number> = {
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  INVALID_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  DAILY_LIMIT_EXCEEDED: 429,
  REQUEST_LIMIT_EXCEEDED: 429,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
  INTERNAL_ERROR: 500,
};

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** An error a client can act on. Each app's exception filter maps it to the version's body. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The offending parameter, when there is one. */
    readonly parameter?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return statusOf(this.code);
  }
}

/** 400 naming the parameter and what it accepts. */
export function invalidParameter(
  parameter: string,
  got: string,
  accepted: readonly string[] | string,
): DomainError {
  const list = typeof accepted === 'string' ? accepted : accepted.join(', ');
  return new DomainError(
    'INVALID_REQUEST',
    `Invalid value '${got}' for '${parameter}'. Accepted: ${list}.`,
    parameter,
  );
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('NOT_FOUND', `${what} not found.`);
  }
}

/**
 * RFC 7807 `type` of a v2 problem: `{docsUrl}#<slug>`, the slug being the code in kebab case
 * (`INVALID_REQUEST` → `#invalid-request`). One rule for the gateway and api-v2, so a client sees
 * the same type for the same code whichever of them answered.
 */
export function problemType(docsUrl: string, code: string): string {
  return `${docsUrl}#${code.toLowerCase().replace(/_/g, '-')}`;
}
