import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A set's cards in browse order. A set browse (v1 `set`, v2 `set`, and every page of a v2 walk
 * through a set) names the set and reads its cards by `(sort_key, uuid)`; with this index the
 * planner reads them in that order from the page's cursor and stops at the page's end, instead of
 * collecting and checking every card of the set, then sorting them, for each page.
 */
export class CardSetSortIndex1764680000000 implements MigrationInterface {
  name = 'CardSetSortIndex1764680000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX cards_set_sort_idx ON cards (set_uuid, sort_key, uuid)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS cards_set_sort_idx`);
  }
}
