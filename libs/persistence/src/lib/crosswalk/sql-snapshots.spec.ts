import { join } from 'node:path';
import {
  itMatchesSqlSnapshots,
  SNAPSHOT_CARD_A as CARD,
  SNAPSHOT_VARIANT_A as VARIANT,
  type SqlCase,
  statementCase,
} from '../../testing/sql-snapshot';
import {
  assertionsOfCardStatement,
  cardOfRefStatement,
  holdersStatement,
  recordIdAssertionsStatement,
  sharedElsewhereStatement,
} from './id-crosswalk.repository';

// The crosswalk's statements for fixed arguments, compared with the files under `sql/` (see
// reads/sql-snapshots.spec.ts). `npm run sql:snapshots` rewrites the files.

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'id-crosswalk.repository': [
    statementCase(
      'a run’s ids, on the day its row started',
      recordIdAssertionsStatement({
        feed: 'mtgjson',
        runId: '42',
        ids: [
          { cardUuid: CARD, variantUuid: null, kind: 'tcgplayer_product', value: '1029' },
          { cardUuid: CARD, variantUuid: VARIANT, kind: 'tcgplayer_sku', value: '9100001' },
        ],
      }),
    ),
    statementCase(
      'a TCGCSV day’s ids',
      recordIdAssertionsStatement({
        feed: 'tcgcsv',
        runId: '43',
        day: '2026-11-25',
        ids: [{ cardUuid: CARD, variantUuid: null, kind: 'tcgplayer_product', value: '558019' }],
      }),
    ),
    statementCase('the card by UUID', cardOfRefStatement(CARD)),
    statementCase(
      'the card by slug',
      cardOfRefStatement('magic-the-gathering-limited-edition-alpha-animate-wall-rare'),
    ),
    statementCase('the card’s ids', assertionsOfCardStatement(CARD)),
    statementCase('the same ids on other cards', sharedElsewhereStatement(CARD)),
    statementCase('the holders of one id', holdersStatement('tcgplayer_product', '1029')),
  ],
};

describe('SQL of the id crosswalk', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
