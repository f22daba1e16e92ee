import { timingSafeEqual } from 'node:crypto';

/**
 * What passes between the gateway and the services behind it. Clients can never set these: the
 * gateway strips every incoming header that starts with `x-tcg-` before adding its own.
 *
 * Framework-free (Node's `crypto` only) and its own entry point, `@tcg/http-service/contract`, so
 * the end-to-end tests can speak it without loading the services' NestJS plumbing.
 */
export const INTERNAL_HEADER_PREFIX = 'x-tcg-';
export const INTERNAL_HEADERS = {
  /** The gateway's shared credential; services refuse requests without it. */
  credential: 'x-tcg-internal-credential',
  /** The caller's plan and usage after this request (JSON of `UsageReport`), for v1 `_metadata`. */
  usage: 'x-tcg-usage',
  /** The caller's key id (never the key) and the units the request was charged, for access lines. */
  keyId: 'x-tcg-key-id',
  cost: 'x-tcg-cost',
} as const;

/**
 * The open probe paths every service answers without a key or the internal credential, for
 * orchestrators and `npm start`; they reveal nothing. Their access lines are at `debug`: a probe
 * every few seconds would otherwise bury the requests in the log.
 */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/health', '/health/live', '/health/ready']);

export interface UsageWindow {
  readonly limit: number;
  readonly used: number;
  readonly resetSeconds: number;
}

export interface UsageReport {
  readonly plan: string;
  readonly minute: UsageWindow;
  readonly day: UsageWindow;
  readonly month: UsageWindow;
}

export function encodeUsage(report: UsageReport): string {
  return JSON.stringify(report);
}

/** The usage report of a request, or undefined when the header is absent or malformed. */
export function decodeUsage(header: string | undefined): UsageReport | undefined {
  if (!header) return undefined;
  try {
    const value = JSON.parse(header) as UsageReport;
    const ok = (w: UsageWindow | undefined) =>
      !!w && [w.limit, w.used, w.resetSeconds].every((n) => Number.isInteger(n) && n >= 0);
    return typeof value.plan === 'string' && ok(value.minute) && ok(value.day) && ok(value.month)
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** Constant-time comparison of a presented credential with the expected one. */
export function credentialMatches(expected: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
