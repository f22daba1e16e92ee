import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables a feed sync or an import writes in bulk, whose statistics the summaries' plans read.
 * Not games and sets: a few thousand rows at most, and a refresh must not wait on a lock of theirs
 * before it starts (import-faults.integration-spec.ts holds sets to stop an import in its refresh).
 */
export const ANALYZED_TABLES = [
  'cards',
  'variants',
  'variant_prices',
  'price_series',
  'card_documents',
] as const;

/**
 * `tcg_analyze_catalogue()`: the planner's statistics of the tables a sync writes, taken before
 * the summary refresh that follows it (issue 36). A first sync of the marketplace writes 280k cards
 * and 1.2M variants into tables the planner may know nothing of yet: autovacuum analyses them
 * only once it gets to them (and a CI server may run without it), and the refresh and the next
 * sync's lookups were planned on empty-table estimates meanwhile. ANALYZE needs the tables'
 * owner, which the importer's role is not: security definer, as tcg_refresh_summary.
 */
export class AnalyzeCatalogue1765830000000 implements MigrationInterface {
  name = 'AnalyzeCatalogue1765830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION tcg_analyze_catalogue() RETURNS void
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      BEGIN
        ANALYZE ${ANALYZED_TABLES.join(', ')};
      END
      $$`);
    await q.query(`REVOKE ALL ON FUNCTION tcg_analyze_catalogue() FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION tcg_analyze_catalogue() TO tcg_importer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS tcg_analyze_catalogue()`);
  }
}
