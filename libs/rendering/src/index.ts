export * from './lib/windows';
export { type Series } from './lib/series';
export { v1VariantHead } from './lib/v1';
export { ALL_PERIOD_WINDOWS, v2VariantHead } from './lib/v2';
export * from './lib/rendered-series';
export * from './lib/joined';
export * from './lib/card-reads';
export {
  BULK_COLUMNS,
  type BulkRow,
  type BulkSourceRow,
  csvHeader,
  csvLines,
  ndjsonLines,
  toBulkRow,
} from './lib/views/bulk-rows';
export { CardView, type HistoryReads, SUMMARIES_DEPENDENCY, type WrittenCards } from './lib/views/card-view';
export {
  type BatchCard,
  type BatchLookup,
  v1BatchView,
  type V1BatchView,
  v1CardsView,
  type V1CardsView,
  v1JoinedJson,
  type V1Presentation,
} from './lib/views/v1-views';
export {
  type JsonWithHeaders,
  type PageCursors,
  v2CardsView,
  type V2CardsView,
  v2CardView,
  type V2CardView,
  type V2Include,
  v2JoinedJson,
  type V2Shape,
} from './lib/views/v2-views';
