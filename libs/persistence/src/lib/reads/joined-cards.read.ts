import { isUuid, type JoinedCard } from '@tcg/domain';
import type { JoinedVariantJson } from '@tcg/rendering';
import { sql } from 'kysely';
import type { VariantScope } from '../documents';
import type { ReadSource } from './read-replicas';
import { cardHasVariant, refClause, regionParam, type RegionParam } from './card-fragments';
import { CARD_COLUMNS, CARD_FROM, JOINED_CARD_ROW, joinedVariantsSql, toJoinedCard } from './card-rows';
import { and, compile, inByPosition, type CompiledSql, type Sql } from '../sql/compile';
import { runRead } from './run-read';
import { listsFit, type ListForm } from '../sql/variant-conditions';
import { LookupBatcher, LOOKUPS_PER_STATEMENT } from './batched-lookups';

export interface JoinedCardsQuery {
  /** Conditions on the cards `c` (`cardsByUuid`, `refClause`, or a lookup page's conditions). */
  readonly cards: Sql;
  readonly json: JoinedVariantJson;
  /** The variants each card returns. */
  readonly scope: VariantScope;
  /** The region of the series joined (the statement's shared region parameter). */
  readonly region: RegionParam;
  /** How the filter's lists are named (`ListForm`): by position in a statement compiled once per shape. */
  readonly lists?: ListForm;
}

/**
 * Cards `c` that `cards` selects, with their set's and game's names and their variants' JSON
 * joined in SQL from stored text: one statement and one row per card, the cheapest read there is
 * for the server and the driver alike.
 */
export function joinedCardsStatement({ cards, json, scope, region, lists }: JoinedCardsQuery) {
  return sql`SELECT ${CARD_COLUMNS}, ${joinedVariantsSql(json, scope, region, lists)} AS variants
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

/** How a lookup names its card: by UUID (`c.uuid`) or by slug (`c.id`). */
type RefKind = 'uuid' | 'slug';

/**
 * The cards `refs` name (UUIDs or slugs, at most LOOKUPS_PER_STATEMENT of them), as a condition
 * on `c` for `joinedCardsStatement`: a batch of lookups, by position (`inByPosition`) so that the
 * statement keeps its generic plan; with `= ANY(refs)` PostgreSQL planned every execution anew
 * (0.7 ms on `tcg_bench_full`, more than reading three cards).
 */
export function refsByPosition(kind: RefKind, refs: readonly string[]): Sql {
  const column = sql.raw(kind === 'uuid' ? 'c.uuid' : 'c.id');
  const array = kind === 'uuid' ? sql`${refs}::uuid[]` : sql`${refs}::text[]`;
  return inByPosition(column, array, LOOKUPS_PER_STATEMENT);
}

/** Stand-ins for one reference and for several (an array, compared by identity) while a lookup's statements are compiled. */
const STAND_INS: Readonly<Record<RefKind, { one: string; many: readonly string[] }>> = {
  uuid: {
    one: 'ffffffff-ffff-4fff-bfff-fffffffffff0',
    many: ['ffffffff-ffff-4fff-bfff-fffffffffff0', 'ffffffff-ffff-4fff-bfff-fffffffffff1'],
  },
  slug: { one: '\u0000card reference\u0000', many: ['\u0000card reference\u0000', '\u0000another\u0000'] },
};
/**
 * Shapes kept per joined form, the least recently used forgotten first: the parsed filters a
 * lookup may take are few, but not bounded (v1's `updated_after` is any second).
 */
const SHAPES_KEPT = 256;

interface LookupShape extends CompiledSql {
  /** Where the reference goes among the parameters. */
  readonly refAt: readonly number[];
}

/**
 * Lookup batchers by read source and joined form (both compared by identity: the repository holds
 * one source, the views build each form once), then by kind of reference and shape.
 */
const batchersOf = new WeakMap<
  ReadSource,
  WeakMap<JoinedVariantJson, Map<string, LookupBatcher<JoinedCard>>>
>();

/** How a lookup reads the card its reference names. */
export interface LookupRead {
  readonly json: JoinedVariantJson;
  /** The variants the card returns. */
  readonly scope: VariantScope;
  /** The storage region of the series joined. */
  readonly region: string;
  /**
   * Only a card that has a variant the scope returns in the region (`cardHasVariant`), as a v1
   * page holds; else the card whatever its variants, as a v2 lookup returns it.
   */
  readonly withVariant: boolean;
}

/**
 * The one card a UUID or slug names, joined as `read.json` says (`readJoinedCards` of
 * `refClause`), by statements compiled once per shape (scope, region, `withVariant`) rather than
 * built and compiled per request: a lookup is the hottest read there is, and its statement's text
 * never varies with the reference, which is bound by position. Lookups of one kind and shape are
 * batched (`LookupBatcher`): one alone is read as by `refClause`, several that arrive together by
 * one of `refsByPosition`.
 */
export async function readJoinedCardByRef(
  source: ReadSource,
  ref: string,
  read: LookupRead,
): Promise<JoinedCard | undefined> {
  const { json, scope, region, withVariant } = read;
  let forms = batchersOf.get(source);
  if (!forms) batchersOf.set(source, (forms = new WeakMap()));
  let batchers = forms.get(json);
  if (!batchers) forms.set(json, (batchers = new Map<string, LookupBatcher<JoinedCard>>()));
  const kind: RefKind = isUuid(ref) ? 'uuid' : 'slug';
  const key = `${kind}\u0000${region}\u0000${withVariant}\u0000${JSON.stringify(scope)}`;
  let batcher = batchers.get(key);
  if (batcher) {
    // Most recently used last: a full map forgets the shape unused the longest, never the hot one.
    batchers.delete(key);
    batchers.set(key, batcher);
  } else {
    // The filter's lists by position when they fit: the statements run again and again with the
    // same values, and PostgreSQL then keeps their generic plan.
    const lists: ListForm = listsFit(scope.filter) ? 'byPosition' : 'any';
    const query = { json, scope, region: regionParam(region), lists };
    // A card of a v1 page has a variant the scope returns; the condition's parameters are the
    // shape's (filter, region), never the reference's.
    const also = withVariant ? cardHasVariant(scope.filter, query.region, {}, lists) : undefined;
    const cards = (refs: Sql) => (also ? and([refs, also]) : refs);
    const { one: oneStandIn, many: manyStandIn } = STAND_INS[kind];
    const one = compileShape(
      oneStandIn,
      joinedCardsStatement({ ...query, cards: cards(refClause(oneStandIn, 'c')) }),
    );
    // Compiled when two lookups of the shape first arrive together: a shape asked for once (a
    // filter value a client varies) never needs it.
    let many: LookupShape | undefined;
    const manyShape = () =>
      (many ??= compileShape(
        manyStandIn,
        joinedCardsStatement({ ...query, cards: cards(refsByPosition(kind, manyStandIn)) }),
      ));
    batcher = new LookupBatcher(async (refs) => {
      const statement = refs.length === 1 ? bound(one, refs[0]) : bound(manyShape(), refs);
      const rows = await runRead(source, JOINED_CARD_ROW, statement);
      return new Map(rows.map((row) => [kind === 'uuid' ? row.uuid : row.id, toJoinedCard(row)]));
    });
    if (batchers.size >= SHAPES_KEPT) batchers.delete(batchers.keys().next().value!);
    batchers.set(key, batcher);
  }
  return batcher.load(kind === 'uuid' ? ref.toLowerCase() : ref);
}

/** `statement` compiled once, with where `standIn` (compared by identity) sits among its parameters. */
function compileShape(standIn: unknown, statement: Sql): LookupShape {
  const compiled = compile(statement);
  const refAt = compiled.parameters.flatMap((p, i) => (p === standIn ? [i] : []));
  if (refAt.length === 0) throw new Error('the lookup statement binds no reference');
  return { ...compiled, refAt };
}

/** The shape's statement with `value` where its reference goes. */
function bound(shape: LookupShape, value: unknown): CompiledSql {
  const parameters = [...shape.parameters];
  for (const i of shape.refAt) parameters[i] = value;
  return { sql: shape.sql, parameters };
}
