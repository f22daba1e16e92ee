import { MigrationInterface, QueryRunner } from 'typeorm';
import { summaryRefreshFunction } from './1764760000000-database-roles';

/**
 * A variant's kind as one text: its type, condition, print type (lower-case), grading company and
 * grade, `|`-separated, empty for NULL. Language is left out: it never decides whether a card is
 * returned (docs/spec/interface.md language rules). Over a relation aliased `v`.
 */
const VARIANT_KIND_SQL = `v.type || '|' || coalesce(v.condition, '') || '|' || lower(v.printing) || '|'
  || coalesce(v.grading_company, '') || '|' || coalesce(v.grade::text, '')`;

/** The views this migration adds, in the order they are built and refreshed (summaries.ts). */
const VIEWS = ['card_facets', 'card_facet_counts', 'card_tops'];

/** card_tops' columns a browse sorts on. */
const TOP_SORT_COLUMNS = ['price', 'change_24h', 'change_7d', 'change_30d', 'change_90d'];

/**
 * The ids of the kinds a card's variants have, then the ids of their scopes: -1 for a raw variant,
 * -2 for a graded one (kind ids are positive). A filter on the scope alone tests those one or two
 * ids rather than every kind of the scope.
 */
const KINDS_AND_SCOPES = `array_agg(DISTINCT k.id) || array_agg(DISTINCT CASE v.type WHEN 'raw' THEN -1 ELSE -2 END)`;

/**
 * Which cards have a variant a filter returns, without visiting their variants (issue 22: a
 * `condition`, `printing`, `graded` or region filter checked every card's variants, 0.2-3 s over
 * the largest game at `full`).
 *
 * - `variant_kinds`: each distinct kind of variant (144 at `full`) with a stable id and the
 *   columns the variant filters test, so that a request turns its filter into the ids of the
 *   kinds it accepts by the same SQL that filters variants. A table, not a view: a trigger on
 *   variants adds a new kind in the writer's transaction, and ids never change.
 * - `card_facets`: per card, the ids of its variants' kinds and scopes (region `*`) and, per
 *   region, of those priced there, with the card's game, set and browse key. A card has a variant a filter returns when its array overlaps the accepted ids:
 *   one row per card. `card_facet_counts` groups the cards of a set by their kinds, what counts read.
 *
 * - `card_tops`: per card, region with prices (and `*`, no region) and scope of its variants
 *   (`raw`, `graded`, `any`), the price and changes of its highest-priced variant there, null when
 *   none is priced: what sorting and `min_price` read (docs/spec/decisions.md), with the card's
 *   game, set, browse key and rank by card id (v1's tie-break, as an integer), so a browse of a game in order, sorted or not, reads these rows
 *   alone rather than every card's row and a probe per card.
 *
 * The views are refreshed with the other summaries after every write (summary_marks), so it lags
 * a write by one refresh, as card_values does. `updated_after` is not answered here: a delta sync
 * must see a price as soon as it is committed, so it stays on variant_prices.
 */
export class CardFacets1764800000000 implements MigrationInterface {
  name = 'CardFacets1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE variant_kinds (
        id              integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind            text NOT NULL UNIQUE,
        type            text NOT NULL,
        condition       text,
        printing        text NOT NULL,
        grading_company text,
        grade           numeric(3, 1)
      )`);
    // Security definer: the importer's role writes variants, and needs no grant on the kinds.
    await q.query(`
      CREATE FUNCTION tcg_note_variant_kinds() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      BEGIN
        INSERT INTO variant_kinds (kind, type, condition, printing, grading_company, grade)
        SELECT DISTINCT ON (1) ${VARIANT_KIND_SQL}, v.type, v.condition, lower(v.printing), v.grading_company, v.grade
        FROM written v
        ORDER BY 1
        ON CONFLICT (kind) DO NOTHING;
        RETURN NULL;
      END
      $$`);
    // A trigger with a transition table takes one event, so inserts and updates have one each.
    for (const event of ['INSERT', 'UPDATE'])
      await q.query(`
        CREATE TRIGGER variants_note_kinds_${event.toLowerCase()} AFTER ${event} ON variants
        REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION tcg_note_variant_kinds()`);
    await q.query(`
      INSERT INTO variant_kinds (kind, type, condition, printing, grading_company, grade)
      SELECT DISTINCT ON (1) ${VARIANT_KIND_SQL}, v.type, v.condition, lower(v.printing), v.grading_company, v.grade
      FROM variants v
      ORDER BY 1`);
    await q.query(`
      CREATE MATERIALIZED VIEW card_facets AS
      SELECT v.card_uuid, c.game_id, c.set_uuid, c.sort_key, '*'::text AS region, ${KINDS_AND_SCOPES} AS kinds
      FROM variants v
      JOIN cards c ON c.uuid = v.card_uuid
      JOIN variant_kinds k ON k.kind = ${VARIANT_KIND_SQL}
      GROUP BY v.card_uuid, c.game_id, c.set_uuid, c.sort_key
      UNION ALL
      SELECT v.card_uuid, c.game_id, c.set_uuid, c.sort_key, vp.region, ${KINDS_AND_SCOPES}
      FROM variants v
      JOIN cards c ON c.uuid = v.card_uuid
      JOIN variant_prices vp ON vp.variant_uuid = v.uuid
      JOIN variant_kinds k ON k.kind = ${VARIANT_KIND_SQL}
      GROUP BY v.card_uuid, c.game_id, c.set_uuid, c.sort_key, vp.region`);
    await q.query(`CREATE UNIQUE INDEX card_facets_card_idx ON card_facets (card_uuid, region)`);
    // A game's or set's cards in browse order with their kinds: a page and a count of a filtered
    // browse read the index alone.
    await q.query(
      `CREATE INDEX card_facets_game_idx ON card_facets (region, game_id, sort_key, card_uuid) INCLUDE (kinds)`,
    );
    await q.query(
      `CREATE INDEX card_facets_set_idx ON card_facets (region, set_uuid, sort_key, card_uuid) INCLUDE (kinds)`,
    );
    // Cards grouped by their kinds: most cards of a set have the same ones, so a count of a game
    // adds up a few thousand of these (6,660 at `full`) rather than testing every card's.
    await q.query(`
      CREATE MATERIALIZED VIEW card_facet_counts AS
      SELECT region, game_id, set_uuid, kinds, count(*)::int AS cards
      FROM card_facets
      GROUP BY region, game_id, set_uuid, kinds`);
    await q.query(
      `CREATE UNIQUE INDEX card_facet_counts_idx ON card_facet_counts (region, game_id, set_uuid, kinds)`,
    );
    // Region `*` holds every card with null values: what a region without any price reads.
    await q.query(`
      CREATE MATERIALIZED VIEW card_tops AS
      WITH regions AS (SELECT DISTINCT region FROM variant_prices UNION ALL SELECT '*'),
      scoped AS (
        SELECT DISTINCT v.card_uuid, s.scope
        FROM variants v CROSS JOIN LATERAL (VALUES (v.type), ('any')) s(scope)),
      tops AS (
        SELECT DISTINCT ON (v.card_uuid, vp.region, s.scope)
               v.card_uuid, vp.region, s.scope, vp.price,
               vp.change_24h, vp.change_7d, vp.change_30d, vp.change_90d
        FROM variants v
        JOIN variant_prices vp ON vp.variant_uuid = v.uuid
        CROSS JOIN LATERAL (VALUES (v.type), ('any')) s(scope)
        ORDER BY v.card_uuid, vp.region, s.scope, vp.price DESC, v.uuid)
      SELECT sc.card_uuid, (dense_rank() OVER (ORDER BY c.id))::int AS card_rank, c.game_id, c.set_uuid,
             c.sort_key, r.region, sc.scope,
             t.price, t.change_24h, t.change_7d, t.change_30d, t.change_90d
      FROM scoped sc
      CROSS JOIN regions r
      JOIN cards c ON c.uuid = sc.card_uuid
      LEFT JOIN tops t ON t.card_uuid = sc.card_uuid AND t.region = r.region AND t.scope = sc.scope`);
    await q.query(`CREATE UNIQUE INDEX card_tops_card_idx ON card_tops (card_uuid, region, scope)`);
    // A game's or set's cards in browse order, with the price that says whether each is priced.
    await q.query(
      `CREATE INDEX card_tops_game_idx ON card_tops (region, scope, game_id, sort_key, card_uuid) INCLUDE (price)`,
    );
    await q.query(
      `CREATE INDEX card_tops_set_idx ON card_tops (region, scope, set_uuid, sort_key, card_uuid) INCLUDE (price)`,
    );
    // Each sort in each direction, unpriced last (topSortSql), with what a page needs beside: a page
    // of a sort reads one of these in order and stops, whatever the game (filtered on game_id).
    await createTopSortIndexes(q);
    for (const view of VIEWS) await q.query(`ANALYZE ${view}`);
    await q.query(`GRANT SELECT ON variant_kinds, ${VIEWS.join(', ')} TO tcg_reader, tcg_importer`);
    // Databases migrated before this one hold the function's first form, which listed the views
    // and did not analyze them.
    await summaryRefreshFunction(q);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const view of [...VIEWS].reverse()) await q.query(`DROP MATERIALIZED VIEW IF EXISTS ${view}`);
    for (const event of ['insert', 'update'])
      await q.query(`DROP TRIGGER IF EXISTS variants_note_kinds_${event} ON variants`);
    await q.query(`DROP FUNCTION IF EXISTS tcg_note_variant_kinds()`);
    await q.query(`DROP TABLE IF EXISTS variant_kinds`);
  }
}

/**
 * card_tops' sort indexes, one per column and direction, unpriced last (topSortSql), keeping the
 * rows `predicate` keeps (SummariesRebuiltBeside leaves out region `*`).
 */
export async function createTopSortIndexes(q: QueryRunner, predicate = ''): Promise<void> {
  for (const column of TOP_SORT_COLUMNS)
    for (const [direction, last] of [
      ['desc', '-Infinity'],
      ['asc', 'Infinity'],
    ])
      await q.query(
        `CREATE INDEX card_tops_${column}_${direction}_idx ON card_tops
         (region, scope, coalesce(${column}::float8, '${last}')) INCLUDE (game_id, price, card_rank, card_uuid)
         ${predicate}`,
      );
}

/** Drops what createTopSortIndexes creates. */
export async function dropTopSortIndexes(q: QueryRunner): Promise<void> {
  for (const column of TOP_SORT_COLUMNS)
    for (const direction of ['desc', 'asc']) await q.query(`DROP INDEX card_tops_${column}_${direction}_idx`);
}
