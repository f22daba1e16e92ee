import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a write changed is marked where it changes (issue 36): on a day of the marketplace new
 * products or newly priced printings are common, so a writer cannot tell alone whether the name
 * views or the facets moved. Statement triggers add a mark of their own, in the write's
 * transaction, for the rows that feed those views:
 *
 * - `all` (every view, the name views included): cards added or removed, or changed in what a
 *   view reads of them (slug, game, set, name, sort key);
 * - `facets` (card_facets and card_facet_counts besides the price views): variants added, removed
 *   or changed in their kind, and series added or removed (which regions a card is priced in);
 * - a writer's own mark is `prices` (the five views built on values), enough when nothing above
 *   fired: observations of stored series, a set's or game's fields, a variant's SKU.
 *
 * A trigger marks only when its statement touched rows (transition tables), so an upsert that
 * writes nothing leaves no mark.
 */
export class SummaryMarksByTrigger1765810000000 implements MigrationInterface {
  name = 'SummaryMarksByTrigger1765810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE summary_marks DROP CONSTRAINT summary_marks_kind_known`);
    await q.query(`
      ALTER TABLE summary_marks
        ADD CONSTRAINT summary_marks_kind_known CHECK (kind IN ('all', 'facets', 'prices'))`);
    // Security definer, as tcg_note_variant_kinds: whoever writes the rows marks, grant or not.
    await q.query(`
      CREATE FUNCTION tcg_mark_summaries_rows() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM changed) THEN
          INSERT INTO summary_marks (kind) VALUES (TG_ARGV[0]);
        END IF;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE FUNCTION tcg_mark_summaries_truncated() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      BEGIN
        INSERT INTO summary_marks (kind) VALUES (TG_ARGV[0]);
        RETURN NULL;
      END
      $$`);
    // An update marks only when it changed what the views read of the rows.
    for (const [table, columns, kind] of [
      ['cards', ['id', 'game_id', 'set_uuid', 'name', 'sort_key'], 'all'],
      ['variants', ['card_uuid', 'type', 'condition', 'printing', 'grading_company', 'grade'], 'facets'],
    ] as const)
      await q.query(`
        CREATE FUNCTION tcg_mark_summaries_${table}_updated() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
        BEGIN
          IF EXISTS (
            SELECT 1 FROM new_rows n JOIN old_rows o ON o.uuid = n.uuid
            WHERE (${columns.map((c) => `n.${c}`).join(', ')})
                  IS DISTINCT FROM (${columns.map((c) => `o.${c}`).join(', ')})) THEN
            INSERT INTO summary_marks (kind) VALUES ('${kind}');
          END IF;
          RETURN NULL;
        END
        $$`);
    for (const [table, kind] of [
      ['cards', 'all'],
      ['variants', 'facets'],
      ['variant_prices', 'facets'],
    ] as const) {
      // A trigger with a transition table takes one event: inserts and deletes have one each.
      await q.query(`
        CREATE TRIGGER ${table}_mark_summaries_insert AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tcg_mark_summaries_rows('${kind}')`);
      await q.query(`
        CREATE TRIGGER ${table}_mark_summaries_delete AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tcg_mark_summaries_rows('${kind}')`);
      await q.query(`
        CREATE TRIGGER ${table}_mark_summaries_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION tcg_mark_summaries_truncated('${kind}')`);
    }
    for (const table of ['cards', 'variants'])
      await q.query(`
        CREATE TRIGGER ${table}_mark_summaries_update AFTER UPDATE ON ${table}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION tcg_mark_summaries_${table}_updated()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['cards', 'variants', 'variant_prices'])
      for (const event of ['insert', 'delete', 'truncate', 'update'])
        await q.query(`DROP TRIGGER IF EXISTS ${table}_mark_summaries_${event} ON ${table}`);
    await q.query(`DROP FUNCTION IF EXISTS tcg_mark_summaries_rows()`);
    await q.query(`DROP FUNCTION IF EXISTS tcg_mark_summaries_truncated()`);
    await q.query(`DROP FUNCTION IF EXISTS tcg_mark_summaries_cards_updated()`);
    await q.query(`DROP FUNCTION IF EXISTS tcg_mark_summaries_variants_updated()`);
    await q.query(`UPDATE summary_marks SET kind = 'all' WHERE kind = 'facets'`);
    await q.query(`ALTER TABLE summary_marks DROP CONSTRAINT summary_marks_kind_known`);
    await q.query(`
      ALTER TABLE summary_marks ADD CONSTRAINT summary_marks_kind_known CHECK (kind IN ('all', 'prices'))`);
  }
}
