import {
  QUOTA_WINDOWS,
  type QuotaDecision,
  type QuotaLimits,
  type QuotaWindow,
  type WindowUsage,
} from './quota';

/** Where one window stands at a given instant. */
export interface WindowSpan {
  /** Stable within the window and different in every other one; used in counter keys. */
  readonly id: string;
  /** First millisecond of the next window. */
  readonly endMs: number;
  /** Whole seconds until `endMs`, at least 1 (a `Retry-After: 0` invites an instant retry). */
  readonly resetSeconds: number;
}

export type QuotaWindowSpans = Readonly<Record<QuotaWindow, WindowSpan>>;

const MINUTE_MS = 60_000;

function span(id: string, endMs: number, nowMs: number): WindowSpan {
  return { id, endMs, resetSeconds: Math.max(1, Math.ceil((endMs - nowMs) / 1000)) };
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The clock minute containing `nowMs`: `m:<minutes since the epoch>`. */
export function minuteWindow(nowMs: number): WindowSpan {
  const index = Math.floor(nowMs / MINUTE_MS);
  return span(`m:${index}`, (index + 1) * MINUTE_MS, nowMs);
}

/** The UTC calendar day containing `nowMs`: `d:YYYYMMDD`. */
export function dayWindow(nowMs: number): WindowSpan {
  const at = new Date(nowMs);
  const [y, m, d] = [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
  return span(`d:${pad(y, 4)}${pad(m + 1, 2)}${pad(d, 2)}`, Date.UTC(y, m, d + 1), nowMs);
}

/** The UTC calendar month containing `nowMs`: `M:YYYYMM`. */
export function monthWindow(nowMs: number): WindowSpan {
  const at = new Date(nowMs);
  const [y, m] = [at.getUTCFullYear(), at.getUTCMonth()];
  return span(`M:${pad(y, 4)}${pad(m + 1, 2)}`, Date.UTC(y, m + 1, 1), nowMs);
}

let lastSecond = Number.NaN;
let lastSpans: QuotaWindowSpans | undefined;

/**
 * The three windows at `nowMs`. Every window ends on a whole second, so the spans (ids, ends and
 * whole seconds left) are the same for every instant of one second: the last second's are reused,
 * since each request asks for them more than once.
 */
export function quotaWindows(nowMs: number): QuotaWindowSpans {
  const second = Math.floor(nowMs / 1000);
  if (second !== lastSecond || lastSpans === undefined) {
    lastSpans = Object.freeze({
      minute: minuteWindow(nowMs),
      day: dayWindow(nowMs),
      month: monthWindow(nowMs),
    });
    lastSecond = second;
  }
  return lastSpans;
}

/**
 * Among the exceeded windows, the one that resets last: waiting for an earlier one to reset would
 * still leave the request refused. When several reset at the same instant (the last minute of a
 * month), the widest one is named, since that is the limit the client actually ran into.
 */
export function mostBindingWindow(
  exceeded: readonly QuotaWindow[],
  spans: QuotaWindowSpans,
): { readonly window: QuotaWindow; readonly retryAfterSeconds: number } | undefined {
  let best: QuotaWindow | undefined;
  for (const window of QUOTA_WINDOWS) {
    if (!exceeded.includes(window)) continue;
    if (best === undefined || spans[window].endMs >= spans[best].endMs) best = window;
  }
  return best === undefined ? undefined : { window: best, retryAfterSeconds: spans[best].resetSeconds };
}

/** The windows in which `cost` more units would go over the limit. */
export function exceededWindows(
  used: Readonly<Record<QuotaWindow, number>>,
  cost: number,
  limits: QuotaLimits,
): QuotaWindow[] {
  return QUOTA_WINDOWS.filter((w) => used[w] + cost > limits[w]);
}

/**
 * The decision both stores return. `used` is the usage after the request when admitted and the
 * unchanged usage when refused.
 */
export function buildQuotaDecision(
  used: Readonly<Record<QuotaWindow, number>>,
  exceeded: readonly QuotaWindow[],
  limits: QuotaLimits,
  spans: QuotaWindowSpans,
): QuotaDecision {
  const usageOf = (w: QuotaWindow): WindowUsage => ({
    limit: limits[w],
    used: used[w],
    resetSeconds: spans[w].resetSeconds,
  });
  const usage = { minute: usageOf('minute'), day: usageOf('day'), month: usageOf('month') };
  const binding = mostBindingWindow(exceeded, spans);
  if (!binding) return { admitted: true, usage };
  return { admitted: false, exceeded: binding.window, retryAfterSeconds: binding.retryAfterSeconds, usage };
}

/**
 * Rejects arguments no store could count correctly (a fractional or negative cost, a limit that
 * is not a whole number, an empty key id, which would also make an empty Redis hash tag). A caller
 * bug, not an outage: the failover store checks this before it tries Redis.
 */
export function assertConsumeArguments(keyId: string, cost: number, limits: QuotaLimits): void {
  if (keyId.length === 0) throw new RangeError('quota key id must not be empty');
  if (!Number.isSafeInteger(cost) || cost < 0)
    throw new RangeError(`quota cost must be a whole number >= 0, got ${cost}`);
  for (const w of QUOTA_WINDOWS) {
    const limit = limits[w];
    if (!Number.isSafeInteger(limit) || limit < 0)
      throw new RangeError(`quota ${w} limit must be a whole number >= 0, got ${limit}`);
  }
}
