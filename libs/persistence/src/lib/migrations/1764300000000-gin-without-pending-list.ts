import { MigrationInterface, QueryRunner } from 'typeorm';

const INDEXES = ['cards_name_trgm_idx', 'sets_name_trgm_idx'];

/**
 * GIN's fast-update mode parks new entries in a pending list that every search scans linearly
 * until a vacuum merges it. After a catalogue load that list held the whole cards table, and every
 * name search scanned it, several times slower than the index itself. The catalogue changes rarely and in bulk, so
 * the names' trigram indexes are updated in place instead, and any pending list is merged now.
 */
export class GinWithoutPendingList1764300000000 implements MigrationInterface {
  name = 'GinWithoutPendingList1764300000000';

  async up(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) {
      await q.query(`ALTER INDEX ${index} SET (fastupdate = off)`);
      await q.query(`SELECT gin_clean_pending_list('${index}'::regclass)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of INDEXES) await q.query(`ALTER INDEX ${index} RESET (fastupdate)`);
  }
}
