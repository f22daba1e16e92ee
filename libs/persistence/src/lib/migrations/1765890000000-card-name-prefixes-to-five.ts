import { MigrationInterface, QueryRunner } from 'typeorm';
import { createCardNamePrefixes } from './1765600000000-card-name-prefixes';

/**
 * card_name_prefixes also holds the answers of texts of 4 and 5 characters (issue 36).
 *
 * At the marketplace's size (280,754 products, 340,012 word starts in card_name_words) a typed
 * prefix of 4 characters matches 65 names on average and up to 8,376 ("the "), 5 characters 39
 * and up to 4,596: card_name_words' index finds them, but each match is a heap row to fetch,
 * group and sort per request, where a precomputed answer is 20 rows read in order. At 6 the
 * average falls to 26. What it costs: at the marketplace's size the view grows from 432,046 rows
 * (35 MB) to 1,219,782 (99 MB) and its build from 6.4 s to 10.9 s; at `full`, 59,406 rows to
 * 210,164 (1.6 s to 1.9 s).
 */
export class CardNamePrefixesToFive1765890000000 implements MigrationInterface {
  name = 'CardNamePrefixesToFive1765890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP MATERIALIZED VIEW card_name_prefixes`);
    await createCardNamePrefixes(q, [2, 3, 4, 5]);
    // Its statistics now, not at the next refresh: the reads are planned from them.
    await q.query(`ANALYZE card_name_prefixes`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP MATERIALIZED VIEW card_name_prefixes`);
    await createCardNamePrefixes(q, [2, 3]);
  }
}
