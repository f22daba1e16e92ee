import { join } from 'node:path';
import { itMatchesSqlSnapshots, type SqlCase, statementCase } from '../../testing/sql-snapshot';
import {
  analyzeDatabaseStatement,
  countCardsStatement,
  createLoadTableStatement,
  insertNewRowsStatement,
} from './catalogue-writer';
import {
  sampleLoadCompletedStatement,
  sampleLoadStartedStatement,
  sampleLoadStatement,
  truncateCatalogueStatement,
} from './sample-load-state';

// The statements the catalogue writer and the sample load's state send, for fixed arguments,
// compared with the files under `sql/` (see reads/sql-snapshots.spec.ts); those of the documents
// the writer renders are with the reads' (reads/sql/card-documents.sql). `npm run sql:snapshots` rewrites the files.

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'catalogue-writer': [
    ...(['games', 'sets', 'cards', 'variants'] as const).flatMap((table) => [
      statementCase(`${table}: the temp table`, createLoadTableStatement(table)),
      statementCase(`${table}: the new rows inserted`, insertNewRowsStatement(table)),
    ]),
    statementCase('planner statistics after a bulk load', analyzeDatabaseStatement()),
    statementCase('stored cards counted', countCardsStatement()),
  ],
  'sample-load-state': [
    statementCase('state', sampleLoadStatement()),
    statementCase('started', sampleLoadStartedStatement('medium')),
    statementCase('completed', sampleLoadCompletedStatement()),
    statementCase('catalogue removed (then marked stale)', truncateCatalogueStatement()),
  ],
};

describe('SQL of the catalogue writer and the sample load', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
