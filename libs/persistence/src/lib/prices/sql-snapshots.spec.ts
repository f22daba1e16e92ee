import { join } from 'node:path';
import {
  itMatchesSqlSnapshots,
  SNAPSHOT_VARIANT_A as VARIANT_A,
  SNAPSHOT_VARIANT_B as VARIANT_B,
  type SqlCase,
  statementCase,
} from '../../testing/sql-snapshot';
import {
  createIngestSeriesStatement,
  createIngestStatsStatement,
  deleteReplacedSeriesStatement,
  lockSeriesStatement,
  seriesOfOtherSourcesStatement,
  storedMonthsStatement,
  upsertSeriesStatement,
  upsertStatsStatement,
  variantRefsStatement,
  vendorSkusStatement,
} from './price-ingest.repository';

// The statements the price ingest sends, for fixed arguments, compared with the files under `sql/`
// (see reads/sql-snapshots.spec.ts); the card documents' are with the reads'
// (reads/sql/card-documents.sql). `npm run sql:snapshots` rewrites the files.

const SERIES = [
  { variantUuid: VARIANT_A, region: 'NA', source: 'tcgplayer', t: [1_790_000_000], p: [1250] },
  { variantUuid: VARIANT_B, region: 'EU', source: 'cardmarket', t: [1_790_000_000], p: [980] },
] as const;

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'price-ingest.repository': [
    statementCase('vendor SKUs resolved', vendorSkusStatement(['7003', '7004', '7003'])),
    statementCase(
      'variant references resolved',
      variantRefsStatement([VARIANT_A], [VARIANT_A, 'lightning-bolt-lea-near-mint-normal-english']),
    ),
    statementCase('ingest: the series locks', lockSeriesStatement([`${VARIANT_A}|NA`, `${VARIANT_B}|EU`])),
    statementCase('ingest: the stored months', storedMonthsStatement(SERIES)),
    statementCase('ingest: the series of other sources', seriesOfOtherSourcesStatement(SERIES)),
    statementCase('ingest: the simulated series replaced', deleteReplacedSeriesStatement(SERIES)),
    statementCase('ingest: the months temp table', createIngestSeriesStatement()),
    statementCase('ingest: the months written', upsertSeriesStatement()),
    statementCase('ingest: the statistics temp table', createIngestStatsStatement()),
    statementCase('ingest: the statistics written', upsertStatsStatement()),
  ],
};

describe('SQL of the price ingest', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
