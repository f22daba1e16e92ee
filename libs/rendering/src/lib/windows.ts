/** Durations of v1 `priceHistoryDuration` and v2 `price_history.<window>`, in seconds. */
export const HISTORY_DURATIONS = {
  '7d': 604_800,
  '30d': 2_592_000,
  '90d': 7_776_000,
  '180d': 15_552_000,
  '1y': 31_536_000,
} as const;
export type HistoryDuration = keyof typeof HISTORY_DURATIONS;

/** v1 `include_statistics` windows. */
export const STATISTIC_WINDOWS = ['7d', '30d', '90d', '1y', 'allTime'] as const;
export type StatisticWindow = (typeof STATISTIC_WINDOWS)[number];

/** v2 `periods` windows. */
export const PERIOD_WINDOWS = ['7d', '30d', '90d', '1y', 'all_time'] as const;
export type PeriodWindow = (typeof PERIOD_WINDOWS)[number];

/** The history a default answer carries: v1 `priceHistory` and v2 `price_history` (7 days). */
export const DEFAULT_HISTORY_SECONDS = HISTORY_DURATIONS['7d'];

/** How far back a v1 variant's history is read: the duration asked for, and the 30 days of `priceHistory30d`. */
export function historyLookbackSeconds(durationSeconds: number): number {
  return Math.max(durationSeconds, HISTORY_DURATIONS['30d']);
}
