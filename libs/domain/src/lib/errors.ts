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
 * The first field of a record (a parsed query, a JSON object) whose name or string value holds a
 * NUL character, which no text column can store: PostgreSQL refuses such a string outright, so it
 * must be a 400 before any query. A NUL in a name is shown escaped, as a backslash and a `0`.
 */
export function nulField(fields: Readonly<Record<string, unknown>>): string | undefined {
  for (const [name, value] of Object.entries(fields)) {
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
