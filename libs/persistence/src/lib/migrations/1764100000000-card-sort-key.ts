import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The browse order of docs/spec/decisions.md (set, then card number read numerically, then the number's text)
 * as one stored, indexed `C`-collated key. Keyset pagination (v2 cursors) compares `(sort_key, uuid)`
 * tuples, and v1's browse reads the same index instead of sorting a game's cards per request.
 * A trigger fills it, so every writer (COPY included) gets it right without knowing about it.
 */
export class CardSortKey1764100000000 implements MigrationInterface {
  name = 'CardSortKey1764100000000';

  async up(q: QueryRunner): Promise<void> {
    // Unit separator (0x1f) sorts before every character of a slug, so `abc` < `abc-x` holds on the
    // key as it does on the set id; `~` after every digit puts unnumbered cards last in their set.
    await q.query(`
      CREATE FUNCTION card_sort_key(set_id text, number text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT set_id || chr(31)
          || coalesce(lpad(nullif(substring(number FROM '^[0-9]+'), ''), 10, '0'), '~~~~~~~~~~')
          || chr(31) || coalesce(number, '~')
      $$`);
    await q.query(`ALTER TABLE cards ADD COLUMN sort_key text COLLATE "C" NOT NULL DEFAULT ''`);
    await q.query(`
      CREATE FUNCTION cards_fill_sort_key() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.sort_key := card_sort_key((SELECT id FROM sets WHERE uuid = NEW.set_uuid), NEW.number);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER cards_sort_key BEFORE INSERT OR UPDATE OF set_uuid, number ON cards
      FOR EACH ROW EXECUTE FUNCTION cards_fill_sort_key()`);
    await q.query(
      `UPDATE cards c SET sort_key = card_sort_key(s.id, c.number) FROM sets s WHERE s.uuid = c.set_uuid`,
    );
    await q.query(`CREATE INDEX cards_sort_idx ON cards (sort_key, uuid)`);
    await q.query(`CREATE INDEX cards_game_sort_idx ON cards (game_id, sort_key, uuid)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS cards_game_sort_idx`);
    await q.query(`DROP INDEX IF EXISTS cards_sort_idx`);
    await q.query(`DROP TRIGGER IF EXISTS cards_sort_key ON cards`);
    await q.query(`DROP FUNCTION IF EXISTS cards_fill_sort_key()`);
    await q.query(`ALTER TABLE cards DROP COLUMN IF EXISTS sort_key`);
    await q.query(`DROP FUNCTION IF EXISTS card_sort_key(text, text)`);
  }
}
