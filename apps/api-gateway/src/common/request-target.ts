/**
 * The one parse of a request's target (the raw `req.url`) that both routing and cost use, so a
 * path the gateway charges as one thing can never reach a service as another. Only canonical
 * origin-form targets pass: a path Express or a service would normalise (case, `//`, dot
 * segments, encoded dots, slashes or backslashes) is refused instead of being normalised here, so
 * what is costed, routed and forwarded is byte for byte the same string.
 */

export type ApiVersion = 'v1' | 'v2';

/** Longer request targets get 414; Node's own limit (16 KiB of headers) is looser. */
export const MAX_TARGET_LENGTH = 8_192;

export interface RequestTarget {
  /** The target exactly as received and as forwarded: `path` plus `?query` when present. */
  readonly raw: string;
  readonly path: string;
  /** Without the `?`; empty when there is none. */
  readonly query: string;
  /** The API version the exact-case prefix names, if any. */
  readonly version: ApiVersion | undefined;
}

export interface TargetRejection {
  readonly status: 400 | 404 | 414;
  readonly code: 'INVALID_REQUEST' | 'NOT_FOUND' | 'URI_TOO_LONG';
  readonly message: string;
  /** Picks the error shape: v2 problem+json, else the v1 body. */
  readonly version: ApiVersion | undefined;
}

// Visible ASCII only; `#` never belongs in a request target (fragments stay on the client).
const TARGET_CHARS = /^[!-"$-~]*$/;
// An escape of `/` or `\` (a second path separator) or of an unreserved character, which a
// canonical URI never escapes (RFC 3986 §6.2.2.2) and which would decode into `.` segments.
const NON_CANONICAL_ESCAPE = /%(?:2[dDeEfF]|3\d|[46][1-9a-fA-F]|[57][0-9aA]|5[cCfF]|7[eE])/;
const MALFORMED_ESCAPE = /%(?![0-9a-fA-F]{2})/;

export function parseRequestTarget(raw: string): RequestTarget | TargetRejection {
  if (raw.length > MAX_TARGET_LENGTH) {
    return reject(
      414,
      'URI_TOO_LONG',
      `The request target is longer than ${MAX_TARGET_LENGTH} characters.`,
      versionOf(raw),
    );
  }
  if (!raw.startsWith('/')) {
    return reject(404, 'NOT_FOUND', 'Only origin-form request targets (starting with "/") are served.');
  }
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = q === -1 ? '' : raw.slice(q + 1);
  const version = versionOf(path);
  if (!TARGET_CHARS.test(raw)) {
    return reject(
      400,
      'INVALID_REQUEST',
      'The request target may contain only visible ASCII characters other than "#"; percent-encode the rest.',
      version,
    );
  }
  if (MALFORMED_ESCAPE.test(raw)) {
    return reject(
      400,
      'INVALID_REQUEST',
      'The request target has a "%" not followed by two hex digits.',
      version,
    );
  }
  const problem = pathProblem(path);
  if (problem) {
    return reject(version ? 400 : 404, version ? 'INVALID_REQUEST' : 'NOT_FOUND', problem, version);
  }
  return { raw, path, query, version };
}

export function isRejection(t: RequestTarget | TargetRejection): t is TargetRejection {
  return 'status' in t;
}

function pathProblem(path: string): string | undefined {
  if (path.includes('\\')) return 'The path may not contain a backslash.';
  if (path.includes('//')) return 'The path may not contain an empty segment ("//").';
  if (NON_CANONICAL_ESCAPE.test(path))
    return 'The path may not percent-encode "/", "\\", letters, digits or "-._~".';
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '..') return 'The path may not contain "." or ".." segments.';
  }
  return undefined;
}

/** The exact-case `/v1` or `/v2` prefix, as a whole first segment. */
function versionOf(path: string): ApiVersion | undefined {
  for (const version of ['v1', 'v2'] as const) {
    const prefix = `/${version}`;
    if (path.startsWith(prefix) && (path.length === prefix.length || '/?'.includes(path[prefix.length]!)))
      return version;
  }
  return undefined;
}

function reject(
  status: TargetRejection['status'],
  code: TargetRejection['code'],
  message: string,
  version?: ApiVersion,
): TargetRejection {
  return { status, code, message, version };
}
