import { isUuid, type JoinedCard } from '@tcg/domain';
import type { JoinedVariantJson } from '@tcg/rendering';
import { sql } from 'kysely';
import type { VariantScope } from '../documents';
import type { ReadSource } from './read-replicas';
import { refClause, regionParam, type RegionParam } from './card-fragments';
import { CARD_COLUMNS, CARD_FROM, JOINED_CARD_ROW, joinedVariantsSql, toJoinedCard } from './card-rows';
import { compile, type CompiledSql, type Sql } from '../sql/compile';
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

/** Stand-ins for a lookup's reference while its statement is compiled once per shape. */
const REF_STAND_IN = {
  uuid: 'ffffffff-ffff-4fff-bfff-fffffffffff0',
  slug: '\u0000card reference\u0000',
} as const;
/** Shapes kept per joined form: the parsed filters a lookup may take are few, but not bounded. */
const SHAPES_KEPT = 256;

interface LookupShape extends CompiledSql {
  /** Where the reference goes among the parameters. */
  readonly refAt: readonly number[];
}

/** Compiled lookups by joined form (compared by identity, as the views build each once), then shape. */
const lookupShapes = new WeakMap<JoinedVariantJson, Map<string, LookupShape>>();

/**
 * The one card a UUID or slug names, joined as `json` says (`readJoinedCards` of `refClause`), by
 * a statement compiled once per shape (UUID or slug, scope, region) rather than built and compiled
 * per request: a lookup is the hottest read there is, and its statement's text never varies with
 * the reference, which is bound by position. The same text and values as `readJoinedCards` sends.
 */
export async function readJoinedCardByRef(
  source: ReadSource,
  ref: string,
  json: JoinedVariantJson,
  scope: VariantScope,
  region: string,
): Promise<JoinedCard | undefined> {
  const uuid = isUuid(ref);
  let shapes = lookupShapes.get(json);
  if (!shapes) lookupShapes.set(json, (shapes = new Map<string, LookupShape>()));
  const key = `${uuid ? 'uuid' : 'slug'}\u0000${region}\u0000${JSON.stringify(scope)}`;
  let shape = shapes.get(key);
  if (!shape) {
    const standIn = uuid ? REF_STAND_IN.uuid : REF_STAND_IN.slug;
    const compiled = compile(
      joinedCardsStatement({ cards: refClause(standIn, 'c'), json, scope, region: regionParam(region) }),
    );
    const refAt = compiled.parameters.flatMap((p, i) => (p === standIn ? [i] : []));
    if (refAt.length === 0) throw new Error('the lookup statement binds no reference');
    if (shapes.size >= SHAPES_KEPT) shapes.clear();
    shapes.set(key, (shape = { ...compiled, refAt }));
  }
  const value = uuid ? ref.toLowerCase() : ref;
  const parameters = [...shape.parameters];
  for (const i of shape.refAt) parameters[i] = value;
  const [row] = await runRead(source, JOINED_CARD_ROW, { sql: shape.sql, parameters });
  return row && toJoinedCard(row);
}
