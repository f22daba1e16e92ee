import { join } from 'node:path';
import {
  itMatchesSqlSnapshots,
  SNAPSHOT_CARD_A as CARD_A,
  SNAPSHOT_CARD_B as CARD_B,
  SNAPSHOT_VARIANT_A as VARIANT_A,
  SNAPSHOT_VARIANT_B as VARIANT_B,
  type SqlCase,
  statementCase,
} from '../../testing/sql-snapshot';
import {
  cardIdsStatement,
  cardsOfGameStatement,
  closeInterruptedRunsStatement,
  countChangedCardsStatement,
  countChangedProductsStatement,
  countGameStatement,
  createFeedCardsStatement,
  createFeedQuotesStatement,
  createFeedSkusStatement,
  databaseNameStatement,
  deleteSimulatedSeriesStatement,
  finishRunStatement,
  gameOfProductsStatement,
  lastObservedStatement,
  productCardsStatement,
  recordTcgcsvGroupDigestStatement,
  setIdsStatement,
  setsOfGameStatement,
  simulatedSeriesOfCardsStatement,
  startRunStatement,
  tcgcsvGroupDigestsStatement,
  updateChangedCardsStatement,
  updateVariantSkusStatement,
  upsertProductsStatement,
  upsertQuotesStatement,
  variantSkusStatement,
  variantsOfSkusStatement,
  variantsWithOtherSkusStatement,
} from './feed-catalogue.repository';

// The statements a feed sync sends beside the catalogue writer and the price ingest, for fixed
// arguments, compared with the files under `sql/` (see reads/sql-snapshots.spec.ts).
// `npm run sql:snapshots` rewrites the files.

const PRODUCTS = [
  { productId: '301', cardUuid: CARD_A, language: 'English' },
  { productId: '302', cardUuid: CARD_B, language: 'German' },
];
const COUNTS = {
  rowsRead: 1200,
  matched: 1100,
  created: 40,
  unmatched: 60,
  observations: 2300,
  reasons: { 'unknown condition': 60 },
  samples: { 'unknown condition': ['Heavily Played'] },
};

const FILES: Readonly<Record<string, readonly SqlCase[]>> = {
  'feed-catalogue.repository': [
    statementCase('ensure game: is it stored', countGameStatement('flesh-and-blood')),
    statementCase('game index: its sets', setsOfGameStatement('flesh-and-blood')),
    statementCase('game index: its cards', cardsOfGameStatement('flesh-and-blood')),
    statementCase(
      'TCGCSV group digests of a day',
      tcgcsvGroupDigestsStatement('flesh-and-blood', 62, '2026-07-01'),
    ),
    statementCase(
      'TCGCSV group digest recorded',
      recordTcgcsvGroupDigestStatement('flesh-and-blood', 62, 24_012, '2026-07-01', 'q3ZxN0d2'),
    ),
    statementCase('every set slug', setIdsStatement()),
    statementCase('every card slug', cardIdsStatement()),
    statementCase('last observed', lastObservedStatement([VARIANT_A, VARIANT_B, VARIANT_A], 'NA')),
    statementCase('existing variants', variantSkusStatement([VARIANT_A, VARIANT_B])),
    statementCase('variants of SKUs', variantsOfSkusStatement(['7003', '7004', '7003'])),
    statementCase('update cards: the temp table', createFeedCardsStatement()),
    statementCase('update cards: how many differ', countChangedCardsStatement()),
    statementCase('update cards: those that differ', updateChangedCardsStatement()),
    statementCase(
      'vendor SKUs: the variants whose SKU differs',
      variantsWithOtherSkusStatement(
        new Map([
          [VARIANT_A, '7003'],
          [VARIANT_B, '7004'],
        ]),
      ),
    ),
    statementCase('vendor SKUs: the temp table', createFeedSkusStatement()),
    statementCase('vendor SKUs: written', updateVariantSkusStatement()),
    statementCase(
      'simulated prices: the series of the cards',
      simulatedSeriesOfCardsStatement([CARD_A, CARD_B]),
    ),
    statementCase(
      'simulated prices: their month rows deleted',
      deleteSimulatedSeriesStatement('price_series', [VARIANT_A, VARIANT_B], ['NA', 'EU']),
    ),
    statementCase(
      'simulated prices: their statistics deleted',
      deleteSimulatedSeriesStatement('variant_prices', [VARIANT_A, VARIANT_B], ['NA', 'EU']),
    ),
    statementCase('quotes: the temp table', createFeedQuotesStatement()),
    statementCase('quotes: the newer ones kept', upsertQuotesStatement()),
    statementCase(
      'marketplace products: how many differ',
      countChangedProductsStatement('cardmarket', PRODUCTS),
    ),
    statementCase('marketplace products: those that differ', upsertProductsStatement('cardmarket', PRODUCTS)),
    statementCase('marketplace products: their cards', productCardsStatement('cardmarket', ['301', '302'])),
    statementCase('the game of TCGplayer products', gameOfProductsStatement([501_234, 501_235])),
    statementCase('the database a sync writes to', databaseNameStatement()),
    statementCase('runs: the interrupted ones closed', closeInterruptedRunsStatement()),
    statementCase('runs: one started', startRunStatement('mtgjson-prices', 'AllPricesToday.json.xz')),
    statementCase(
      'runs: one imported',
      finishRunStatement(
        '42',
        {
          file: 'AllPricesToday.json.xz',
          sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
          fetchedAt: new Date('2026-07-01T04:00:00.000Z'),
        },
        COUNTS,
      ),
    ),
    statementCase(
      'runs: one failed',
      finishRunStatement(
        '43',
        { file: 'AllPricesToday.json.xz' },
        { rowsRead: 0, matched: 0, created: 0, unmatched: 0, observations: 0, reasons: {} },
        'the file failed its check',
      ),
    ),
  ],
};

describe('SQL of the feeds', () => {
  itMatchesSqlSnapshots(join(__dirname, 'sql'), FILES);
});
