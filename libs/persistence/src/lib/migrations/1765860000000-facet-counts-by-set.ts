import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * card_facet_counts by set (issue 36). The view's one index leads with the game, so a browse of a
 * set alone, which names no game, counted its cards by reading every row: 10,437 rows, 3.4 ms a
 * page at the marketplace's size (4,332 sets), more than the page's own read. The set's rows are
 * now one index probe away. The swap of a refresh (SummariesRebuiltBeside) rebuilds it with the
 * view's other indexes.
 */
export class FacetCountsBySet1765860000000 implements MigrationInterface {
  name = 'FacetCountsBySet1765860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX card_facet_counts_set_idx ON card_facet_counts (region, set_uuid) INCLUDE (kinds, cards)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX card_facet_counts_set_idx`);
  }
}
