/** Stable error codes shared by both API versions (docs/spec/interface.md "Codes" plus NOT_FOUND). */
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

/**
 * The first request parameter (or path) holding a NUL character, which no text column can
 * store: PostgreSQL refuses such a string outright, so it must be a 400 before any query.
 */
export function nulParameter(path: string, query: Readonly<Record<string, unknown>>): string | undefined {
  if (/%00/i.test(path)) return 'path';
  for (const [name, value] of Object.entries(query)) {
    if (name.includes('\0')) return name.replace(/\0/g, '\\0');
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.includes('\0'))) return name;
  }
  return undefined;
}

export function nulRejected(parameter: string): DomainError {
  return new DomainError(
    'INVALID_REQUEST',
    `Invalid value for '${parameter}': it contains a NUL character (%00). Accepted: text without NUL characters.`,
    parameter,
  );
}
