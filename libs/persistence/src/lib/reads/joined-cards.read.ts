import type { JoinedCard } from '@tcg/domain';
import type { JoinedVariantJson } from '@tcg/rendering';
import { sql } from 'kysely';
import type { VariantScope } from '../prices/card-documents';
import type { ReadSource } from '../read-replicas';
import type { RegionParam } from './card-fragments';
import { CARD_COLUMNS, CARD_FROM, JOINED_CARD_ROW, joinedVariantsSql, toJoinedCard } from './card-rows';
import type { Sql } from './compile';
import { runRead } from './run-read';

export interface JoinedCardsQuery {
  /** Conditions on the cards `c` (`cardsByUuid`, `refClause`, or a lookup page's conditions). */
  readonly cards: Sql;
  readonly json: JoinedVariantJson;
  /** The variants each card returns. */
  readonly scope: VariantScope;
  /** The region of the series joined (the statement's shared region parameter). */
  readonly region: RegionParam;
}

/**
 * Cards `c` that `cards` selects, with their set's and game's names and their variants' JSON
 * joined in SQL from stored text: one statement and one row per card, the cheapest read there is
 * for the server and the driver alike.
 */
export function joinedCardsStatement({ cards, json, scope, region }: JoinedCardsQuery) {
  return sql`SELECT ${CARD_COLUMNS}, ${joinedVariantsSql(json, scope, region)} AS variants
          FROM ${CARD_FROM}
          WHERE ${cards}`;
}

/**
 * The cards by UUID. One card (every lookup) by a plain parameter: PostgreSQL then keeps the
 * statement's generic plan, where with an array it re-plans each execution for its values, and
 * the planning costs more than the read.
 */
export function cardsByUuid(uuids: readonly string[]): Sql {
  return uuids.length === 1 ? sql`c.uuid = ${uuids[0]}::uuid` : sql`c.uuid = ANY(${uuids}::uuid[])`;
}

export async function readJoinedCards(source: ReadSource, query: JoinedCardsQuery): Promise<JoinedCard[]> {
  const rows = await runRead(source, JOINED_CARD_ROW, joinedCardsStatement(query));
  return rows.map(toJoinedCard);
}
