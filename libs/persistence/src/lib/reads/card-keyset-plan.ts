import type { KeysetQuery } from '@tcg/domain';
import { sql } from 'kysely';
import {
  browseConditions,
  browseSummary,
  hasVariant,
  ORDER_COLUMN,
  regionParam,
  relevance,
  topJoin,
  toppedScope,
  topRegionMatch,
  topSortKey,
  topVariantJoin,
  unpricedEnd,
  type RegionParam,
  type ResolvedFilter,
} from './card-fragments';
import type { Sql } from '../sql/compile';

/** A v2 browse or search with its filter's accepted kinds (`readAcceptedKinds`). */
export type ResolvedKeysetQuery = KeysetQuery & {
  readonly filter: ResolvedFilter;
  /** Whether card_tops holds the region (`readTopRegion`), where the query reads card_tops (`keysetReadsCardTops`). */
  readonly priced?: boolean;
};

/** A column of the order: its expression, the type its text key is read back as, its direction. */
export interface KeyColumn {
  readonly expr: Sql;
  readonly type: 'text' | 'uuid' | 'float8';
  readonly dir: 'asc' | 'desc';
}

/** The rows `from` (with its FROM) that `where` keeps, each the card `uuid`, in the order of `columns`. */
export interface KeysetPlan {
  readonly region: RegionParam;
  readonly from: Sql;
  readonly uuid: Sql;
  readonly where: Sql[];
  readonly columns: KeyColumn[];
}

function needsTop(query: KeysetQuery): boolean {
  return query.orderBy !== undefined || query.minPrice !== undefined;
}

/**
 * Whether a query reads card_tops (each card's top variant, where the filter is on the variants'
 * scope alone): for its order or floor, or for a browse by game and/or set alone.
 */
export function keysetReadsCardTops(query: KeysetQuery): boolean {
  const browseOnly = !query.browse.q && !query.browse.number;
  return toppedScope(query.filter) && (browseOnly || needsTop(query));
}

/**
 * A keyset order over a total order that always ends in the card UUID. card_tops holds each card's
 * top variant where the filter is on the variants' scope alone; a browse by game and/or set alone
 * reads a summary's rows alone (as `cardPagePlan`).
 */
export function keysetPlan(query: ResolvedKeysetQuery): KeysetPlan {
  const region = regionParam(query.region);
  const tops = query.priced === undefined ? undefined : topRegionMatch(query.priced, region.sql);
  const sortedOrFloored = needsTop(query);
  const summary = browseSummary(query.browse, query.filter, region.sql, tops, sortedOrFloored);
  const browse = summary ? { where: [] } : browseConditions(query.browse);
  const where = summary ? summary.where : [...browse.where, hasVariant(query.filter, region.sql)];
  const from = summary
    ? sql`FROM ${summary.from}`
    : !sortedOrFloored
      ? sql`FROM cards c`
      : tops !== undefined
        ? sql`FROM cards c ${topJoin(query.filter, tops)}`
        : sql`FROM cards c ${topVariantJoin(query.filter, region.sql)}`;
  if (query.minPrice !== undefined) where.push(sql`top.price >= ${query.minPrice}`);
  const card = summary
    ? { uuid: sql.raw(`${summary.alias}.card_uuid`), sortKey: sql.raw(`${summary.alias}.sort_key`) }
    : { uuid: sql`c.uuid`, sortKey: sql`c.sort_key` };
  let columns: KeyColumn[];
  if (query.orderBy) {
    // Unpriced cards last whichever the direction, as NULLS LAST would put them; the form the
    // CardFacets migration indexes (topSortKey). Nothing priced in the region: the value every
    // card has, so the UUID alone orders.
    columns = [
      {
        expr:
          summary && query.priced === false
            ? sql`${unpricedEnd(query.direction)}::float8`
            : topSortKey(ORDER_COLUMN[query.orderBy], query.direction),
        type: 'float8',
        dir: query.direction,
      },
      { expr: card.uuid, type: 'uuid', dir: query.direction },
    ];
  } else if ('search' in browse && browse.search) {
    columns = [
      { expr: relevance(browse.search), type: 'float8', dir: 'desc' },
      { expr: sql`c.sort_key`, type: 'text', dir: 'asc' },
      { expr: sql`c.uuid`, type: 'uuid', dir: 'asc' },
    ];
  } else {
    columns = [
      { expr: card.sortKey, type: 'text', dir: 'asc' },
      { expr: card.uuid, type: 'uuid', dir: 'asc' },
    ];
  }
  return { region, from, uuid: card.uuid, where, columns };
}
