import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A search ranked by name (issues 36 and 38). A search's relevance is its name's alone, so it is
 * computed once per distinct name rather than once per card, and the matches are counted from
 * each name's counts rather than card by card; only the cards of the names that reach the page
 * are visited.
 *
 * - `search_names`: every distinct card name (case-folded), whatever its game, with a trigram
 *   index (updated in place: no pending list, as CardNamesGinInPlace).
 * - `card_name_facets`: each name's cards by game, region and variant kinds (card_facets' columns).
 * - `cards_name_lower_idx`: a name's cards.
 *
 * At the marketplace's size (280,754 products carrying ~17,000 names over 85 games) a search of
 * the cards rechecked, probed and ranked every match: 40 ms of PostgreSQL CPU a search, four times
 * `full`'s (bench:api, v1 search row).
 *
 * Refreshed with card_facets (a price in a new region adds facet rows) and with the name views.
 */
export class NameRankedSearch1765880000000 implements MigrationInterface {
  name = 'NameRankedSearch1765880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE MATERIALIZED VIEW search_names AS SELECT DISTINCT lower(c.name) AS folded FROM cards c`,
    );
    await q.query(`CREATE UNIQUE INDEX search_names_key ON search_names (folded)`);
    await q.query(
      `CREATE INDEX search_names_trgm_idx ON search_names USING gin (folded gin_trgm_ops) WITH (fastupdate = off)`,
    );
    await q.query(`
      CREATE MATERIALIZED VIEW card_name_facets AS
      SELECT lower(c.name) AS folded, c.game_id, f.region, f.kinds, count(*)::int AS cards
      FROM card_facets f JOIN cards c ON c.uuid = f.card_uuid
      GROUP BY lower(c.name), c.game_id, f.region, f.kinds`);
    await q.query(
      `CREATE UNIQUE INDEX card_name_facets_key ON card_name_facets (folded, game_id, region, kinds)`,
    );
    await q.query(`CREATE INDEX cards_name_lower_idx ON cards (lower(name))`);
    await q.query(`GRANT SELECT ON search_names, card_name_facets TO tcg_reader, tcg_importer`);
    await q.query(`ANALYZE search_names`);
    await q.query(`ANALYZE card_name_facets`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS cards_name_lower_idx`);
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS card_name_facets`);
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS search_names`);
  }
}
