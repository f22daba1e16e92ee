import type { CardIdentifier } from '@tcg/domain';
import { isUuid } from '@tcg/domain';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { IDENTIFIER_SOURCE } from './card-fragments';
import { joined } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('resolve identifiers', {
  ordinal: 'int',
  card_uuid: 'string',
  variant_uuid: 'string?',
});
export type ResolvedIdentifierRow = RowOf<typeof ROW>;

export interface IdentifierItem {
  readonly ordinal: number;
  readonly by: CardIdentifier;
  readonly value: string;
}

/**
 * The kind of an identifier's value in the statement: the identifier, and for those that take a
 * UUID, which form this value has.
 */
function identifierKind(by: CardIdentifier, value: string): string {
  return IDENTIFIER_SOURCE[by].uuid ? `${by}:${isUuid(value) ? 'uuid' : 'slug'}` : by;
}

/**
 * One branch per identifier kind, built once from IDENTIFIER_SOURCE: the statement's text (and
 * its prepared statement) never varies, only its three arrays.
 */
const BRANCHES = joined(
  (
    Object.entries(IDENTIFIER_SOURCE) as [CardIdentifier, (typeof IDENTIFIER_SOURCE)[CardIdentifier]][]
  ).flatMap(([by, source]) =>
    (source.uuid ? (['slug', 'uuid'] as const) : ([undefined] as const)).map((form) => {
      const kind = sql.lit(form ? `${by}:${form}` : by);
      const match =
        form === 'uuid' ? sql`x.uuid = lower(r.val)::uuid` : sql`x.${sql.raw(source.column)} = r.val`;
      return source.table === 'cards'
        ? sql`SELECT r.ordinal, x.uuid AS card_uuid, NULL::uuid AS variant_uuid FROM r JOIN cards x ON r.kind = ${kind} AND ${match}`
        : sql`SELECT r.ordinal, x.card_uuid, x.uuid AS variant_uuid FROM r JOIN variants x ON r.kind = ${kind} AND ${match}`;
    }),
  ),
  sql`\nUNION ALL `,
);

/**
 * Resolves many identifiers in one statement: each row is a request ordinal with its card and,
 * for a variant identifier, its variant; ordinals that name nothing are absent.
 */
export function resolveIdentifiersStatement(items: readonly IdentifierItem[]) {
  return sql`WITH r AS (SELECT * FROM unnest(${items.map((i) => i.ordinal)}::int[], ${items.map((i) =>
    identifierKind(i.by, i.value),
  )}::text[], ${items.map((i) => i.value)}::text[]) AS r(ordinal, kind, val))
${BRANCHES}
ORDER BY 1, 2`;
}

export function readResolvedIdentifiers(
  source: ReadSource,
  items: readonly IdentifierItem[],
): Promise<ResolvedIdentifierRow[]> {
  return runRead(source, ROW, resolveIdentifiersStatement(items));
}
