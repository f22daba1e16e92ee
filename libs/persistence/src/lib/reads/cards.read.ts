import type { Card } from '@tcg/domain';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { CARD_COLUMNS, CARD_FROM, CARD_ROW, toCard } from './card-rows';
import { runRead } from './run-read';

/** A card with its set's and game's names. */
export interface NamedCard {
  readonly card: Card;
  readonly setName: string;
  readonly gameName: string;
}

/** The cards of these UUIDs, in no particular order (a read per request renders their variants). */
export function cardsStatement(cardUuids: readonly string[]) {
  return sql`SELECT ${CARD_COLUMNS}
         FROM ${CARD_FROM}
         WHERE c.uuid = ANY(${cardUuids}::uuid[])`;
}

export async function readCards(source: ReadSource, cardUuids: readonly string[]): Promise<NamedCard[]> {
  const rows = await runRead(source, CARD_ROW, cardsStatement(cardUuids));
  return rows.map((r) => ({ card: toCard(r), setName: r.set_name, gameName: r.game_name }));
}
