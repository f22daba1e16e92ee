import type { Card, JoinedCard } from '@tcg/domain';
import type { JoinedVariantJson } from '@tcg/rendering';
import { sql } from 'kysely';
import { storedDocument, variantsAggregateSql, type VariantScope } from '../documents';
import { variantWhere, type RegionParam } from './card-fragments';
import type { Sql } from '../sql/compile';
import type { ListForm } from '../sql/variant-conditions';
import { rowSchema, type RowOf } from '../sql/row-schema';

// A card as the card reads select it: its columns with its set's and game's names, and (joined
// reads) its variants' JSON joined in SQL.

/** Cards `c` with their sets `s` and games `g`, as `CARD_COLUMNS` reads them. */
export const CARD_FROM = sql`cards c JOIN sets s ON s.uuid = c.set_uuid JOIN games g ON g.id = c.game_id`;

/** A card's columns with its set's and game's names, over `c`, `s` and `g`. */
export const CARD_COLUMNS = sql`c.uuid, c.id, c.game_id, g.name AS game_name, s.id AS set_id, s.name AS set_name,
  c.name, c.number, c.rarity, c.details, c.vendor_id, c.openset_id, c.imagedb_id, c.sealed`;

const CARD_COLUMN_TYPES = {
  uuid: 'string',
  id: 'string',
  game_id: 'string',
  game_name: 'string',
  set_id: 'string',
  set_name: 'string',
  name: 'string',
  number: 'string?',
  rarity: 'string?',
  details: 'string?',
  vendor_id: 'string?',
  openset_id: 'string?',
  imagedb_id: 'string?',
  sealed: 'boolean',
} as const;

export const CARD_ROW = rowSchema('cards', CARD_COLUMN_TYPES);
export type CardRow = RowOf<typeof CARD_ROW>;

/** A card row with its variants' JSON joined (NULL for none). */
export const JOINED_CARD_ROW = rowSchema('joined cards', { ...CARD_COLUMN_TYPES, variants: 'string?' });
export type JoinedCardRow = RowOf<typeof JOINED_CARD_ROW>;

export function toCard(r: CardRow): Card {
  return {
    uuid: r.uuid,
    id: r.id,
    gameId: r.game_id,
    setId: r.set_id,
    name: r.name,
    number: r.number,
    rarity: r.rarity,
    details: r.details,
    vendorId: r.vendor_id,
    opensetId: r.openset_id,
    imagedbId: r.imagedb_id,
    sealed: r.sealed,
  };
}

export function toJoinedCard(r: JoinedCardRow): JoinedCard {
  return { card: toCard(r), setName: r.set_name, gameName: r.game_name, variantsJson: r.variants ?? '' };
}

/**
 * The correlated subquery that joins the JSON of card `c`'s variants (those `scope` returns) in
 * SQL, NULL for none, with their series in `region`. What a stored document holds
 * (`CARD_DOCUMENTS`: the raw variants with those options' parts) is read from it, one text per
 * card; a card whose document is missing is joined from its variants' parts.
 */
export function joinedVariantsSql(
  json: JoinedVariantJson,
  scope: VariantScope,
  region: RegionParam,
  lists: ListForm = 'any',
): Sql {
  const joined = variantsAggregateSql(
    json,
    variantWhere(scope.filter, scope.onlyVariant, scope.onlySku, lists),
    region.sql,
  );
  const document = storedDocument(json, scope, region.value);
  return document
    ? sql`COALESCE((SELECT d.${sql.raw(document.column)} FROM card_documents d WHERE d.card_uuid = c.uuid), ${joined})`
    : joined;
}
