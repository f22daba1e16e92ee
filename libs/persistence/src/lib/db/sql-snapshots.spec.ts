import { join } from 'node:path';
import { itMatchesSqlSnapshots, statementCase } from '../../testing/sql-snapshot';
import { changedCardsStatement, pruneCardChangesStatement } from './card-changes';
import { dataVersionStatement, listenDataVersionStatement } from './data-version';
import { advisoryLockStatement, advisoryUnlockStatement, tryAdvisoryLockStatement } from './transaction';

// The statements of the data version, its card change log and the session locks, compared with the files under `sql/`
// (see reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the files.

describe('SQL of the data version, the card change log and the session locks', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), {
    'card-changes': [
      statementCase('the cards versions 41 to 43 changed', changedCardsStatement(40, 43, 100_001)),
      statementCase('the log pruned up to version 40', pruneCardChangesStatement(40)),
    ],
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
