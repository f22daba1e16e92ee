import { sql } from 'kysely';
import { rowSchema } from '../sql/row-schema';
import { rowOf, rowsOf, type Connection } from '../sql/run';

/**
 * Past this many changed cards between two versions, a reader is told that anything may have
 * changed: dropping a whole cache costs less than checking each of its answers against a set this
 * large, and the answer stays a few hundred kilobytes.
 */
export const CHANGED_CARDS_MAX = 20_000;
/**
 * The log's rows read at most for one range (a card written by several statements has several):
 * past it, anything may have changed. Bounds the read, whatever one version wrote.
 */
export const CHANGED_ROWS_MAX = 100_000;

const CHANGED = rowSchema('changed cards', { card_uuid: 'string?' });
const PRUNED = rowSchema('card changes pruned', { rows: 'int' });

/**
 * The log's rows of the versions in (`after`, `upTo`] (`card_changes`, CardChanges migration), at
 * most `limit` of the cards' rows, and one row with no card if there is any above `after`: a mark
 * above `upTo` counts too, since a prune that ran after `upTo` was read may have removed rows of
 * the range and left its mark above. Both parts read an index range, the cards' cut at `limit`.
 */
export function changedCardsStatement(after: number, upTo: number, limit: number) {
  const from = sql`${String(after)}::bigint`;
  return sql<{ card_uuid: string | null }>`(SELECT card_uuid FROM card_changes
       WHERE version > ${from} AND card_uuid IS NULL LIMIT 1)
     UNION ALL
     (SELECT card_uuid FROM card_changes
       WHERE version > ${from} AND version <= ${String(upTo)}::bigint AND card_uuid IS NOT NULL
       LIMIT ${limit})`;
}

/**
 * The cards the versions after `after`, up to `upTo`, wrote; null when any answer may have changed
 * (a shared table written, a TRUNCATE, a range pruned, more than `CHANGED_CARDS_MAX` cards).
 */
export async function readChangedCards(
  connection: Connection,
  after: number,
  upTo: number,
): Promise<ReadonlySet<string> | null> {
  const rows = await rowsOf(connection, CHANGED, changedCardsStatement(after, upTo, CHANGED_ROWS_MAX + 1));
  if (rows.length > CHANGED_ROWS_MAX) return null;
  const cards = new Set<string>();
  for (const row of rows) {
    if (row.card_uuid === null) return null;
    cards.add(row.card_uuid);
  }
  return cards.size > CHANGED_CARDS_MAX ? null : cards;
}

/**
 * Removes the log's rows up to `upTo` and leaves one row with no card at the newest version it
 * removed: a reader whose range starts below that version learns that anything may have changed,
 * one whose range starts at or above it lost nothing. Returns the cards' rows removed.
 */
export function pruneCardChangesStatement(upTo: number) {
  return sql<{ rows: number }>`WITH gone AS (
       DELETE FROM card_changes WHERE version <= ${String(upTo)}::bigint RETURNING version, card_uuid),
     mark AS (
       INSERT INTO card_changes (version) SELECT max(version) FROM gone HAVING count(*) > 0)
     SELECT count(card_uuid)::int AS rows FROM gone`;
}

export async function pruneCardChanges(connection: Connection, upTo: number): Promise<number> {
  return (await rowOf(connection, PRUNED, pruneCardChangesStatement(upTo))).rows;
}
