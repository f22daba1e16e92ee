import { join } from 'node:path';
import { itMatchesSqlSnapshots, statementCase } from '../../testing/sql-snapshot';
import {
  analyzeCatalogueStatement,
  clearSummaryMarksStatement,
  markPricesStaleStatement,
  refreshVersionStatement,
  refreshSummaryStatement,
  summariesStaleStatement,
  summaryMarksStatement,
} from './summaries';

// The statements of the summaries and their marks, compared with the files under `sql/` (see
// reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the files.

describe('SQL of the summaries', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), {
    summaries: [
      statementCase('a writer marks them stale', markPricesStaleStatement()),
      statementCase('stale?', summariesStaleStatement()),
      statementCase('refresh: the marks', summaryMarksStatement()),
      statementCase('refresh: tables analysed first', analyzeCatalogueStatement()),
      statementCase('refresh: a view', refreshSummaryStatement('card_values')),
      statementCase('refresh: a data version of its own', refreshVersionStatement()),
      statementCase('refresh: the marks it saw cleared', clearSummaryMarksStatement(['41', '42'])),
    ],
  });
});
