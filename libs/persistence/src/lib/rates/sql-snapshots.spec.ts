import { join } from 'node:path';
import { itMatchesSqlSnapshots, type SqlCase, statementCase } from '../../testing/sql-snapshot';
import {
  countChangedRatesStatement,
  ratesOfSourceStatement,
  ratesStampStatement,
  upsertRatesStatement,
} from './exchange-rate.repository';

// The statements of the exchange rates, for fixed arguments, compared with the files under `sql/`
// (see reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the files.

const RATES = [
  { day: '2025-05-09', currency: 'USD', rate: '1.1252' },
  { day: '2025-05-09', currency: 'GBP', rate: '0.84770' },
];

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'exchange-rate.repository': [
    statementCase('rates: how many are new or differ', countChangedRatesStatement('ecb', RATES)),
    statementCase('rates: those written', upsertRatesStatement('ecb', '42', RATES)),
    statementCase('rates: every one of a source, for memory', ratesOfSourceStatement('ecb')),
    statementCase('rates: the stamp a reader checks', ratesStampStatement()),
  ],
};

describe('SQL of the exchange rates', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
