import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A trigger function that logs the cards of the rows a statement wrote to a table whose rows name
 * their card (`card`), rows matched by `key`: `changed` holds the rows inserted, deleted or (for an
 * UPDATE) as they became; `was`, for an UPDATE, as they were, and both a row's old and new card
 * are logged (a variant moved). `compared`: an UPDATE that leaves a row as it was logs nothing.
 */
function notingCards(
  name: string,
  { key, card, compared }: { key: string; card: string; compared: boolean },
) {
  const differs = (side: 'o' | 'n') => (compared ? `${side}.${key} IS NULL OR o::text <> n::text` : 'true');
  return `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      taken bigint := next_data_version();
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        INSERT INTO card_changes (version, card_uuid)
        SELECT taken, n.${card} FROM changed n LEFT JOIN was o ON o.${key} = n.${key} WHERE ${differs('o')}
        UNION
        SELECT taken, o.${card} FROM was o LEFT JOIN changed n ON n.${key} = o.${key} WHERE ${differs('n')};
      ELSE
        INSERT INTO card_changes (version, card_uuid) SELECT DISTINCT taken, r.${card} FROM changed r;
      END IF;
      RETURN NULL;
    END $$`;
}

/**
 * `card_changes`: which cards each data version changed, so that a service's response cache keeps,
 * across a version, the answers made of cards the version did not touch (issue 38, item 3: every
 * committed import batch used to empty every cache).
 *
 * A card's lookup answer is read from `cards`, `variants`, `variant_prices` and `card_documents`
 * (by the card) and from `sets`, `games` and, for `currency=`, `exchange_rates` (shared by many
 * cards). Statement triggers on the first four append, with the transaction's data version, the
 * cards of the rows a statement wrote: from its transition tables, so one row per card and
 * statement, not per row. An update of `cards` or `variants` that leaves a row as it was logs
 * nothing (a feed re-sending the same catalogue keeps the cache). A write to the shared tables, a
 * TRUNCATE of any, and the migration itself append a row with no card: any answer may have
 * changed. Inserting a set or a game changes no answer that exists and logs nothing. v1's lookup
 * also asks the summaries (`card_values`, `card_tops`) whether its card has a priced variant: their
 * refresh (`refreshSummaries`) logs a row with no card too.
 *
 * Whoever writes is logged: an import, a feed, the loader. The log is pruned by the worker
 * (`pruneCardChangesStatement`), which leaves a row with no card at the newest version it removed:
 * a reader whose range reaches below it is told that anything may have changed.
 */
export class CardChanges1765940000000 implements MigrationInterface {
  name = 'CardChanges1765940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_changes (
        version   bigint NOT NULL,
        card_uuid uuid
      )`);
    await q.query(`CREATE INDEX card_changes_version_idx ON card_changes (version)`);
    // The marks, found without reading the cards' rows above a version.
    await q.query(`CREATE INDEX card_changes_marks_idx ON card_changes (version) WHERE card_uuid IS NULL`);
    // Nothing written before this was logged: a cache of an earlier version is not carried over.
    await q.query(`INSERT INTO card_changes (version) SELECT version FROM data_version`);

    // Tables whose rows name their card. Rendered documents change with every write of a price:
    // they are not compared.
    await q.query(notingCards('note_cards_written', { key: 'uuid', card: 'uuid', compared: true }));
    await q.query(notingCards('note_variants_written', { key: 'uuid', card: 'card_uuid', compared: true }));
    await q.query(
      notingCards('note_documents_written', { key: 'card_uuid', card: 'card_uuid', compared: false }),
    );
    // A price names its card through its variant, and is not compared either.
    await q.query(`
      CREATE FUNCTION note_prices_written() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        taken bigint := next_data_version();
      BEGIN
        INSERT INTO card_changes (version, card_uuid)
        SELECT DISTINCT taken, v.card_uuid FROM variants v
         WHERE v.uuid IN (SELECT p.variant_uuid FROM changed p);
        IF TG_OP = 'UPDATE' THEN
          INSERT INTO card_changes (version, card_uuid)
          SELECT DISTINCT taken, v.card_uuid FROM variants v
           WHERE v.uuid IN (SELECT o.variant_uuid FROM was o EXCEPT SELECT n.variant_uuid FROM changed n);
        END IF;
        RETURN NULL;
      END $$`);
    // Shared by many cards: any answer may have changed. The mark, also taken by what no trigger
    // sees (a summary refresh: `refreshVersionStatement`).
    await q.query(`
      CREATE FUNCTION mark_any_card_changed() RETURNS void LANGUAGE sql AS $$
        INSERT INTO card_changes (version) VALUES (next_data_version())
      $$`);
    await q.query(`
      CREATE FUNCTION note_any_card_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Separate tests: only an UPDATE's trigger has the transition tables.
        IF TG_OP = 'UPDATE' THEN
          IF NOT EXISTS (SELECT o::text FROM was o EXCEPT SELECT n::text FROM changed n) THEN
            RETURN NULL;
          END IF;
        END IF;
        PERFORM mark_any_card_changed();
        RETURN NULL;
      END $$`);

    const byCard = {
      cards: 'note_cards_written',
      variants: 'note_variants_written',
      card_documents: 'note_documents_written',
      variant_prices: 'note_prices_written',
    };
    for (const [table, fn] of Object.entries(byCard)) {
      await q.query(`
        CREATE TRIGGER ${table}_inserted_cards AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
      await q.query(`
        CREATE TRIGGER ${table}_updated_cards AFTER UPDATE ON ${table}
        REFERENCING OLD TABLE AS was NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
      await q.query(`
        CREATE TRIGGER ${table}_deleted_cards AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    }
    for (const table of ['games', 'sets', 'exchange_rates']) {
      // An insert changes no answer that exists: a card refers to its set only once it is written.
      await q.query(`
        CREATE TRIGGER ${table}_updated_cards AFTER UPDATE ON ${table}
        REFERENCING OLD TABLE AS was NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION note_any_card_changed()`);
      await q.query(`
        CREATE TRIGGER ${table}_deleted_cards AFTER DELETE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION note_any_card_changed()`);
    }
    // A new rate changes the conversions of the days it covers.
    await q.query(`
      CREATE TRIGGER exchange_rates_inserted_cards AFTER INSERT ON exchange_rates
      FOR EACH STATEMENT EXECUTE FUNCTION note_any_card_changed()`);
    for (const table of [...Object.keys(byCard), 'games', 'sets', 'exchange_rates'])
      await q.query(`
        CREATE TRIGGER ${table}_truncated_cards AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION note_any_card_changed()`);

    // The writers append; the services read, and api-v1's worker prunes (tcg_reader's role).
    await q.query(`GRANT SELECT, INSERT ON card_changes TO tcg_importer`);
    await q.query(`GRANT SELECT, INSERT, DELETE ON card_changes TO tcg_reader`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'cards',
      'variants',
      'card_documents',
      'variant_prices',
      'games',
      'sets',
      'exchange_rates',
    ])
      for (const event of ['inserted', 'updated', 'deleted', 'truncated'])
        await q.query(`DROP TRIGGER IF EXISTS ${table}_${event}_cards ON ${table}`);
    for (const fn of [
      'note_cards_written',
      'note_variants_written',
      'note_documents_written',
      'note_prices_written',
      'note_any_card_changed',
      'mark_any_card_changed',
    ])
      await q.query(`DROP FUNCTION IF EXISTS ${fn}()`);
    await q.query(`DROP TABLE IF EXISTS card_changes`);
  }
}
