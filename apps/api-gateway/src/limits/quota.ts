/** The three limit windows of a plan (docs/spec/decisions.md): a clock minute, a UTC day, a UTC month. */
export type QuotaWindow = 'minute' | 'day' | 'month';
export const QUOTA_WINDOWS: readonly QuotaWindow[] = ['minute', 'day', 'month'];

export interface QuotaLimits {
  readonly minute: number;
  readonly day: number;
  readonly month: number;
}

export interface WindowUsage {
  readonly limit: number;
  /** Units used in the current window, after this request when it was admitted. */
  readonly used: number;
  /** Whole seconds until the window resets (at least 1). */
  readonly resetSeconds: number;
}

export interface QuotaDecision {
  readonly admitted: boolean;
  /** When refused: the window that refused it (the one that resets last among those exceeded). */
  readonly exceeded?: QuotaWindow;
  /** When refused: seconds until `exceeded` resets. */
  readonly retryAfterSeconds?: number;
  readonly usage: Readonly<Record<QuotaWindow, WindowUsage>>;
}

/**
 * Checks and counts a request's cost against all three windows in one atomic step: either every
 * counter moves by `cost` or none does (a refused request costs nothing).
 */
export interface QuotaStore {
  consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision>;
}
