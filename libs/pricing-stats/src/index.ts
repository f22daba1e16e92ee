export {
  WINDOW_SECONDS,
  computeSeriesStats,
  emptySeriesStats,
  type AllTimeStats,
  type ExtremesStats,
  type FullWindowStats,
  type RangeWindowStats,
  type SeriesStats,
  type WindowChange,
  type WindowName,
} from './lib/series-stats';
export { percentChange } from './lib/change';
export * from './lib/present';
