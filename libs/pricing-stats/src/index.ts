export {
  WINDOW_SECONDS,
  computeSeriesStats,
  emptySeriesStats,
  type AllTimeStats,
  type ExtremesStats,
  type FullWindowStats,
  type RangeWindowStats,
  type SeriesStats,
  type WindowName,
} from './lib/series-stats';
export * from './lib/present';
