/**
 * Plans and their limits (docs/spec/decisions.md "Plans, limits and usage"). `concurrentRequests`
 * is how many of a key's requests one gateway instance serves at once, and `concurrentDownloads`
 * how many of those may be bulk downloads (docs/keys-and-limits.md); past either: 429.
 * `maxAlerts` is how many price alerts a key may keep (docs/alerts.md); past it: 403.
 */
export const PLANS = {
  free: {
    perMinute: 10,
    perDay: 100,
    perMonth: 1_000,
    maxLimit: 20,
    maxBatch: 20,
    concurrentRequests: 4,
    concurrentDownloads: 1,
    maxAlerts: 5,
  },
  starter: {
    perMinute: 60,
    perDay: 2_000,
    perMonth: 30_000,
    maxLimit: 100,
    maxBatch: 100,
    concurrentRequests: 8,
    concurrentDownloads: 2,
    maxAlerts: 50,
  },
  professional: {
    perMinute: 200,
    perDay: 10_000,
    perMonth: 200_000,
    maxLimit: 100,
    maxBatch: 100,
    concurrentRequests: 16,
    concurrentDownloads: 2,
    maxAlerts: 500,
  },
  enterprise: {
    perMinute: 1_000,
    perDay: 100_000,
    perMonth: 2_000_000,
    maxLimit: 200,
    maxBatch: 200,
    concurrentRequests: 32,
    concurrentDownloads: 4,
    maxAlerts: 5_000,
  },
} as const;

export type PlanName = keyof typeof PLANS;
export type PlanLimits = (typeof PLANS)[PlanName];
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as string[]).includes(value);
}
