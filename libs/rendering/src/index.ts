export * from './lib/windows';
export { listJson, type Series } from './lib/series';
export {
  V1_NO_HISTORY,
  v1CardJson,
  v1HistoryMembers,
  v1StatisticFields,
  v1StatsMembers,
  type V1StatisticFields,
  v1VariantHead,
  v1VariantJson,
} from './lib/v1';
export {
  ALL_PERIOD_WINDOWS,
  v2CardJson,
  v2HistoryMember,
  v2MarketJson,
  v2PeriodsMember,
  v2PriceMembers,
  v2VariantHead,
  v2VariantJson,
} from './lib/v2';
export * from './lib/rendered-series';
export * from './lib/joined';
export * from './lib/card-reads';
