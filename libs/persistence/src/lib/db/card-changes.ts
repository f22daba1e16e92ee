import { sql } from 'kysely';
import { db } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { rowOf, rowsOf, type Connection } from '../sql/run';

/**
 * Past this many changed cards between two versions, a reader is told that anything may have
 * changed: dropping a whole cache costs less than checking each of its answers against a set this
 * large, and the answer stays a few hundred kilobytes.
 */
export const CHANGED_CARDS_MAX = 20_000;

const CHANGED = rowSchema('changed cards', { card_uuid: 'string?' });
const PRUNED = rowSchema('card changes pruned', { rows: 'int' });

/**
 * The cards the versions in (`after`, `upTo`] wrote (`card_changes`, CardChanges migration), at
 * most `limit` of them, a row with no card first. A row with no card above `upTo` counts too: a
 * prune that ran after `upTo` was read may have removed rows of the range and left its mark above.
 */
export function changedCardsStatement(after: number, upTo: number, limit: number) {
  return db
    .selectFrom('card_changes')
    .select('card_uuid')
    .distinct()
    .where('version', '>', sql<string>`${String(after)}::bigint`)
    .where((eb) =>
      eb.or([eb('version', '<=', sql<string>`${String(upTo)}::bigint`), eb('card_uuid', 'is', null)]),
    )
    .orderBy(sql`card_uuid NULLS FIRST`)
    .limit(limit);
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
  const rows = await rowsOf(connection, CHANGED, changedCardsStatement(after, upTo, CHANGED_CARDS_MAX + 1));
  if (rows.length > CHANGED_CARDS_MAX) return null;
  const cards = new Set<string>();
  for (const row of rows) {
    if (row.card_uuid === null) return null;
    cards.add(row.card_uuid);
  }
  return cards;
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
