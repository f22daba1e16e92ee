import { MigrationInterface, QueryRunner } from 'typeorm';

/** As in CardNameSuggestions: characters after which a word of a card name starts. */
const WORD_BREAKS = `' ', '-', '/', '(', '"', ','`;

/**
 * The answers of `GET /v1/cards/autocomplete` for what is typed first, 2 and 3 characters, worked
 * out at each data version: per game (and `*`, every game) and prefix, the 20 best names in the
 * prefix ranking's order (the names more cards carry first, then those starting with it, shorter,
 * alphabetical). Those prefixes match thousands of names at `full` ("th": 4 ms of sorting per
 * request), the longer ones a few, which card_name_words' index serves as before.
 *
 * Built from `cards` (not from card_name_words, so either can be dropped alone).
 */
export class CardNamePrefixes1765600000000 implements MigrationInterface {
  name = 'CardNamePrefixes1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await createCardNamePrefixes(q, [2, 3]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS card_name_prefixes`);
  }
}

/**
 * card_name_prefixes holding the answers of texts of `lengths` characters (CardNamePrefixesToFive
 * widens them), with its key and grants.
 */
export async function createCardNamePrefixes(q: QueryRunner, lengths: readonly number[]): Promise<void> {
  await q.query(`
      CREATE MATERIALIZED VIEW card_name_prefixes AS
      WITH names AS (
        SELECT c.game_id, lower(c.name) AS folded, min(c.name) AS name, count(*)::int AS cards
        FROM cards c GROUP BY c.game_id, lower(c.name)
      ), words AS (
        SELECT n.game_id, n.folded, n.name, n.cards, i AS at, substr(n.folded, i) AS tail
        FROM names n, generate_series(1, length(n.folded)) AS i
        WHERE (i = 1 OR substr(n.folded, i - 1, 1) IN (${WORD_BREAKS}))
          AND substr(n.folded, i, 1) NOT IN (${WORD_BREAKS})
      ), starts AS (
        SELECT w.game_id, w.folded, w.name, w.cards, bool_or(w.at = 1) AS at_start, left(w.tail, p.len) AS prefix
        FROM words w CROSS JOIN (VALUES ${lengths.map((n) => `(${Number(n)})`).join(', ')}) AS p (len)
        WHERE length(w.tail) >= p.len
        GROUP BY w.game_id, w.folded, w.name, w.cards, left(w.tail, p.len)
      ), scoped AS (
        SELECT s.game_id AS scope, s.* FROM starts s
        UNION ALL
        SELECT '*', s.* FROM starts s
      ), ranked AS (
        SELECT scope, prefix, game_id, name, cards,
               row_number() OVER (PARTITION BY scope, prefix
                                  ORDER BY cards DESC, at_start DESC, length(folded), folded, game_id) AS rank
        FROM scoped
      )
      SELECT scope, prefix, rank::int AS rank, game_id, name, cards FROM ranked WHERE rank <= 20`);
  await q.query(`CREATE UNIQUE INDEX card_name_prefixes_key ON card_name_prefixes (scope, prefix, rank)`);
  await q.query(`GRANT SELECT ON card_name_prefixes TO tcg_reader, tcg_importer`);
}
