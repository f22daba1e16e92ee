import { join } from 'node:path';
import { BULK_FORMATS, HISTORY_FORMAT } from '@tcg/domain';
import {
  itMatchesSqlSnapshots,
  SNAPSHOT_CARD_A as CARD_A,
  SNAPSHOT_CARD_B as CARD_B,
  type SqlCase,
  statementCase,
} from '../../testing/sql-snapshot';
import {
  bulkRowCountStatement,
  cardPageStatement,
  deleteOlderStatement,
  dropExpiredGameArchivesStatement,
  dropSnapshotsStatement,
  finishStatement,
  pageRowsStatement,
  placeholderStatement,
  storePartStatement,
} from './bulk-generator';
import {
  allGamesStatement,
  archiveDayStatement,
  archivedSnapshotsStatement,
  archivedSnapshotStatement,
  chunkSizesStatement,
  chunkStatement,
  dropExpiredArchivesStatement,
  dropUnfinishedSnapshotsStatement,
  gamesDueHistoryStatement,
  gamesToSnapshotStatement,
  hasArchiveStatement,
  latestSnapshotsStatement,
  latestSnapshotStatement,
  pruneSeriesChangesStatement,
} from './bulk-snapshot.repository';
import { historyMonthsStatement, historySeriesStatement } from './history-rows';
import { cardAfterStatement, truncatedSinceStatement } from './previous-history';

// The statements of the bulk snapshots, archives and history, for fixed arguments, compared with
// the files under `sql/` (see reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the
// files.

const DAY = 86_400;
const FILE = { bytes: 48_213, sha256: 'a'.repeat(64), chunks: 1 };

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'bulk-snapshot': [
    statementCase('latest snapshots', latestSnapshotsStatement(BULK_FORMATS)),
    statementCase('latest history files', latestSnapshotsStatement([HISTORY_FORMAT])),
    statementCase('archives', archivedSnapshotsStatement()),
    statementCase('an archive', archivedSnapshotStatement('2026-11-02', 'mtg', 'csv.gz')),
    statementCase('the latest of a game', latestSnapshotStatement('mtg', 'ndjson.gz')),
    statementCase('a part', chunkStatement(42, 3)),
    statementCase('the sizes of the parts', chunkSizesStatement(42)),
    statementCase('games due a generation', gamesToSnapshotStatement(DAY, '2026-11-02')),
    statementCase('games due a generation, no archive', gamesToSnapshotStatement(DAY, null)),
    statementCase('the archive day', archiveDayStatement()),
    statementCase('whether the archive exists', hasArchiveStatement('mtg', '2026-11-02')),
    statementCase('games due a history file', gamesDueHistoryStatement(DAY)),
    statementCase('expired archives deleted', dropExpiredArchivesStatement('2026-11-02', 30)),
    statementCase('every game', allGamesStatement()),
    statementCase('unfinished snapshots left by a kill deleted', dropUnfinishedSnapshotsStatement()),
    statementCase('the change log pruned', pruneSeriesChangesStatement()),
  ],
  'bulk-generator': [
    statementCase('placeholder', placeholderStatement('mtg', 'ndjson.gz', 1234, null)),
    statementCase('placeholder of an archive', placeholderStatement('mtg', 'csv.gz', 1234, '2026-11-02')),
    statementCase('first card page', cardPageStatement('mtg', undefined, 20)),
    statementCase('next card page', cardPageStatement('mtg', { uuid: CARD_A, sort_key: 'm0001' }, 20)),
    statementCase('a page of rows', pageRowsStatement([CARD_A, CARD_B])),
    statementCase('a part stored', storePartStatement('42', 0, Buffer.from('gzip part'))),
    statementCase('finished', finishStatement('42', FILE, 1_000)),
    statementCase('unfinished snapshots deleted', dropSnapshotsStatement(['42', '43'])),
    statementCase(
      "the game's expired archives deleted",
      dropExpiredGameArchivesStatement('mtg', { date: '2026-11-02', keepDays: 30 }),
    ),
    statementCase('older snapshots deleted', deleteOlderStatement('mtg')),
    statementCase('row count', bulkRowCountStatement('mtg')),
  ],
  'history-rows': [
    statementCase('the series of a page, since a version', historySeriesStatement([CARD_A, CARD_B], 1234)),
    statementCase(
      'months of these series from a month on',
      historyMonthsStatement([
        { variantUuid: CARD_A, region: 'NA', fromMonth: 20_393 },
        { variantUuid: CARD_B, region: 'EU', fromMonth: 20_362 },
      ]),
    ),
  ],
  'previous-history': [
    statementCase('truncated since a version', truncatedSinceStatement(1234)),
    statementCase('a card after the page', cardAfterStatement('mtg', 'mtg-lea-black-lotus', CARD_B)),
  ],
};

describe('SQL of the bulk files', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
