import { UsageReport, UsageWindow } from '@tcg/http-service';

const POLICY_WINDOW_SECONDS = { minute: 60, day: 86_400, month: 2_592_000 } as const;

/**
 * v2's usage headers: `RateLimit` (docs/spec/interface.md) for the window closest to exhaustion, plus
 * `RateLimit-Policy` and `RateLimit-Limit/-Remaining/-Reset` that the official client reads.
 */
export function rateLimitHeaders(usage: UsageReport): Record<string, string> {
  const windows = (['minute', 'day', 'month'] as const).map((name) => ({ name, w: usage[name] }));
  const remaining = (w: UsageWindow) => Math.max(0, w.limit - w.used);
  // Closest to exhaustion: the smallest remaining share; on a tie, the one that resets last.
  const closest = windows.reduce((best, cur) => {
    const a = remaining(cur.w) / cur.w.limit;
    const b = remaining(best.w) / best.w.limit;
    return a < b || (a === b && cur.w.resetSeconds > best.w.resetSeconds) ? cur : best;
  }).w;
  return {
    RateLimit: `limit=${closest.limit}, remaining=${remaining(closest)}, reset=${closest.resetSeconds}`,
    'RateLimit-Policy': windows
      .map(({ name, w }) => `"${name}";q=${w.limit};w=${POLICY_WINDOW_SECONDS[name]}`)
      .join(', '),
    'RateLimit-Limit': String(closest.limit),
    'RateLimit-Remaining': String(remaining(closest)),
    'RateLimit-Reset': String(closest.resetSeconds),
  };
}
