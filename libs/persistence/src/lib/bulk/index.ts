// The bulk capability's public API; its statement builders stay inside the library, for the
// snapshot spec.
export * from './gzip-chunks';
export {
  bulkRowCount,
  generateGameHistory,
  generateGameSnapshots,
  GenerationSuperseded,
  SNAPSHOTS_KEPT,
  type ArchiveOptions,
  type GameHistoryResult,
  type GameSnapshotResult,
  type GenerateOptions,
} from './bulk-generator';
export {
  allGames,
  archiveDay,
  BULK_LOCK_KEY,
  dropExpiredArchives,
  dropUnfinishedSnapshots,
  gamesDueHistory,
  gamesToSnapshot,
  hasArchive,
  pruneSeriesChanges,
  TypeOrmBulkSnapshotStore,
  withBulkLock,
} from './bulk-snapshot.repository';
