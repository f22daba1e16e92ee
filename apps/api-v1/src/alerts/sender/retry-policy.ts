import type { AfterFailure } from '@tcg/persistence';

/** The longest gap between two attempts of an event. */
export const MAX_GAP_MS = 2 * 3_600_000;

export interface RetryPolicy {
  /** The gap after the first failure; it doubles after each next one, up to MAX_GAP_MS. */
  readonly baseMs: number;
  /** From the event's firing: no attempt is scheduled past it. */
  readonly windowMs: number;
}

/**
 * What follows failed attempt number `attempt` (from 1) of an event that fired at `firedAt`: the
 * next one after half the doubled gap plus a random part of the other half ("equal jitter": gaps
 * still grow, and senders that failed together do not retry together), or giving up once the
 * next attempt would fall past the window.
 */
export function afterFailure(
  attempt: number,
  firedAt: Date,
  now: Date,
  policy: RetryPolicy,
  random: () => number = Math.random,
): AfterFailure {
  const gap = Math.min(policy.baseMs * 2 ** Math.min(attempt - 1, 30), MAX_GAP_MS);
  const retryAt = new Date(now.getTime() + gap / 2 + random() * (gap / 2));
  if (retryAt.getTime() - firedAt.getTime() > policy.windowMs)
    return { giveUp: `deliveries failed for ${formatWindow(policy.windowMs)}` };
  return { retryAt };
}

function formatWindow(ms: number): string {
  return ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${Math.round(ms / 1000)} s`;
}
