import { join } from 'node:path';
import { itMatchesSqlSnapshots, statementCase } from '../../testing/sql-snapshot';
import { dataVersionStatement, listenDataVersionStatement } from './data-version';
import { advisoryLockStatement, advisoryUnlockStatement, tryAdvisoryLockStatement } from './transaction';

// The statements of the data version and the session locks, compared with the files under `sql/`
// (see reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the files.

describe('SQL of the data version and the session locks', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), {
    'data-version': [
      statementCase('the committed version', dataVersionStatement()),
      statementCase('the watcher listens', listenDataVersionStatement()),
    ],
    transaction: [
      statementCase('session lock, waiting', advisoryLockStatement(7_311)),
      statementCase('session lock, if free', tryAdvisoryLockStatement(7_311)),
      statementCase('session lock released', advisoryUnlockStatement(7_311)),
    ],
  });
});
