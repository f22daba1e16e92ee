import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * card_names' trigram index updated in place, as the catalogue's are (GinWithoutPendingList1764300000000).
 *
 * card_names is refreshed in place (card_name_words is built on it), and a concurrent refresh
 * inserts every changed name; in fast-update mode GIN parks those in a pending list that every
 * search scans linearly until a vacuum merges it, and nothing vacuums a view the autovacuum
 * daemon may be off for. At `full`, after the sample load's refreshes, the list held 387 pages:
 * a close-match count for `dragon` read 1,375 buffers in 10.9 ms, and 216 buffers in 1.4 ms once
 * merged (EXPLAIN ANALYZE). Autocomplete's close matches and every search by name read this index.
 */
export class CardNamesGinInPlace1765870000000 implements MigrationInterface {
  name = 'CardNamesGinInPlace1765870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX card_names_trgm_idx SET (fastupdate = off)`);
    await q.query(`SELECT gin_clean_pending_list('card_names_trgm_idx'::regclass)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX card_names_trgm_idx RESET (fastupdate)`);
  }
}
