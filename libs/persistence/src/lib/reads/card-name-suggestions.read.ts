import type { NameSuggestionQuery } from './catalogue.repository.port';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { db, shared } from '../sql/compile';
import { escapeLike } from '../sql/like-pattern';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('card name suggestions', {
  game_id: 'string',
  name: 'string',
  cards: 'int',
});
export type NameSuggestionRow = RowOf<typeof ROW>;

/** `LIKE` pattern, folded as the names were, of a word starting with `text`. */
function startsWith(text: string) {
  return sql<string>`lower(${shared(`${escapeLike(text)}%`)})`;
}

/**
 * Names with a word that starts with the text (card_name_words' prefix index): the names more
 * cards carry first (printings, the best sign of a name people look for: at `full`, "bol" put
 * Lightning Bolt's 15 printings 20th behind names that merely start with it), then those that
 * start with the text, then the shorter, then alphabetically.
 */
export function namePrefixStatement(query: NameSuggestionQuery) {
  return PRECOMPUTED.has([...query.text].length)
    ? precomputedPrefixStatement(query)
    : wordStartStatement(query);
}

/** `namePrefixStatement` by card_name_words' prefix index, for any text. */
export function wordStartStatement(query: NameSuggestionQuery) {
  const game = shared(query.gameId ?? null);
  return (
    db
      .selectFrom('card_name_words as w')
      .select(['w.game_id', 'w.name', 'w.cards'])
      .where(sql<boolean>`w.tail LIKE ${startsWith(query.text)}`)
      .where(sql<boolean>`(${game}::text IS NULL OR w.game_id = ${game})`)
      // A name with two words that start with the text is one suggestion.
      .groupBy(['w.game_id', 'w.folded', 'w.name', 'w.cards'])
      .orderBy('w.cards', 'desc')
      .orderBy(sql`min(w.at) = 1`, 'desc')
      .orderBy(sql`length(w.folded)`)
      .orderBy('w.folded')
      .orderBy('w.game_id')
      .limit(query.limit)
  );
}

/** Lengths of the text (in characters) whose answers card_name_prefixes holds. */
const PRECOMPUTED: ReadonlySet<number> = new Set([2, 3, 4, 5]);

/**
 * The same names, in the same order, for a text of 2 to 5 characters: read from card_name_prefixes,
 * worked out at the data version, instead of sorting every name with a word that starts so.
 */
function precomputedPrefixStatement(query: NameSuggestionQuery) {
  return db
    .selectFrom('card_name_prefixes as p')
    .select(['p.game_id', 'p.name', 'p.cards'])
    .where(sql<boolean>`p.scope = ${query.gameId ?? '*'}`)
    .where(sql<boolean>`p.prefix = lower(${query.text})`)
    .orderBy('p.rank')
    .limit(query.limit);
}

/**
 * Names close to the text (a typo): similar as a whole (trigram similarity ≥ 0.3) or containing a
 * similar word (word similarity ≥ 0.6), both served by card_names' trigram index, the most similar
 * as a whole first. Prefix matches among them are left to `readNameSuggestions`, which has them.
 */
export function nameSimilarStatement(query: NameSuggestionQuery) {
  const game = shared(query.gameId ?? null);
  const text = sql<string>`lower(${shared(query.text)})`;
  return (
    db
      .selectFrom('card_names as n')
      .select(['n.game_id', 'n.name', 'n.cards'])
      .where(sql<boolean>`(n.folded % ${text} OR ${text} <% n.folded)`)
      .where(sql<boolean>`(${game}::text IS NULL OR n.game_id = ${game})`)
      // The whole name's likeness first: a word's alone ranks "Chain Lightning" above "Lightning
      // Bolt" for "lightnin blot".
      .orderBy(sql`similarity(n.folded, ${text})`, 'desc')
      .orderBy(sql`word_similarity(${text}, n.folded)`, 'desc')
      .orderBy('n.cards', 'desc')
      .orderBy('n.folded')
      .orderBy('n.game_id')
      .limit(query.limit)
  );
}

/**
 * Close matches are looked for only when no name has a word starting with the text: a typo. At
 * `full` the trigram search costs 9–10 ms a request where the prefix read costs 0.2–0.4 (700 typed
 * prefixes of the catalogue's names); run whenever fewer than 5 names matched (a long prefix of a
 * rare name does), it took 85% of the database time of the autocomplete benchmark.
 */
export const SIMILAR_BELOW = 1;

/** Up to `limit` names: those a word of which starts with the text, then close ones (see SIMILAR_BELOW). */
export async function readNameSuggestions(
  source: ReadSource,
  query: NameSuggestionQuery,
): Promise<{ readonly prefix: NameSuggestionRow[]; readonly similar: NameSuggestionRow[] }> {
  const prefix = await runRead(source, ROW, namePrefixStatement(query));
  if (prefix.length >= Math.min(query.limit, SIMILAR_BELOW)) return { prefix, similar: [] };
  // Fewer than `limit` prefix matches: `prefix` holds every one, so a close match that is one too
  // is dropped here, and `limit` close matches leave enough after the drop.
  const key = (r: NameSuggestionRow) => `${r.game_id}\u0000${r.name}`;
  const found = new Set(prefix.map(key));
  const close = await runRead(source, ROW, nameSimilarStatement(query));
  return { prefix, similar: close.filter((r) => !found.has(key(r))).slice(0, query.limit - prefix.length) };
}
