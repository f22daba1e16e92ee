import type { BrowseSelector, CardOrder, CardSelector } from '@tcg/domain';
import { sql } from 'kysely';
import type { VariantScope } from '../documents';
import {
  answeredByFacets,
  browseConditions,
  browseSummary,
  facetCount,
  facetMatch,
  cardHasVariant,
  existenceSummarised,
  identifierCondition,
  ORDER_COLUMN,
  regionParam,
  relevance,
  type SearchText,
  topJoin,
  toppedScope,
  topRegionMatch,
  topSortSql,
  topVariantJoin,
  type RegionParam,
  type ResolvedFilter,
} from './card-fragments';
import { and, joined, type Sql } from '../sql/compile';

/** A v1 page request, its filter's kinds resolved (`readAcceptedKinds`). */
export interface CardPageRequest {
  readonly selector: CardSelector;
  readonly filter: ResolvedFilter;
  readonly region: string;
  readonly order: CardOrder;
  /**
   * Whether card_tops holds the region (`readTopRegion`), given where the request reads card_tops
   * (`readsCardTops`); undefined elsewhere.
   */
  readonly priced?: boolean;
}

/**
 * Which cards a page holds and in what order, as the page statements (`firstCardPage`,
 * `deepCardPage`, `rankedCardPage`) and the count select them: rows of `from` (cards `c`, or a
 * summary's rows) that `where` keeps, each standing for the card `uuid`.
 */
export interface CardPagePlan {
  readonly region: RegionParam;
  /** The variants the page's cards return: the filter's, or the one variant or SKU an identifier names. */
  readonly scope: VariantScope;
  readonly from: Sql;
  readonly uuid: Sql;
  readonly where: Sql;
  readonly ordering: Sql;
  /**
   * Whether the page's own pass counts its matches: a search ranks every match to order them, and
   * a delta sync (`updatedAfter`, from the cards of the changed prices) gathers every match to
   * order them, so the same pass counts them, a window count rather than a second query that
   * finds them again.
   */
  readonly counted: boolean;
  /** card_facet_counts' count of a browse by game and/or set that card_tops does not answer. */
  readonly facetCount?: Sql;
  /**
   * A search ranked by name (`nameRankedCardPage`) rather than card by card: a search by text
   * alone or within a game, in relevance order, whose filter card_facets answers.
   */
  readonly named?: NamedSearch;
}

/** What a search ranked by name needs beside the plan (NameRankedSearch migration). */
export interface NamedSearch {
  readonly text: SearchText;
  /** The search's browse: its text, and its game if any (never a set or a number). */
  readonly selector: BrowseSelector;
  /** The filter's condition on card_facets' columns, as `f` (card_name_facets has them too). */
  readonly facets: Sql;
  /** The same test on a card `c`'s own facets. */
  readonly cardHasVariant: Sql;
}

/** The one variant or SKU an identifier names: a lookup returns that variant of its card. */
function lookupScope(selector: CardSelector): { onlyVariant?: string; onlySku?: string } {
  if (selector.by === 'variantId') return { onlyVariant: selector.value };
  if (selector.by === 'vendorSkuId') return { onlySku: selector.value };
  return {};
}

/** A card's price for sorting and min_price: its highest-priced variant among those returned. */
function needsTop(order: CardOrder): boolean {
  return order.by !== undefined || order.minPrice !== undefined;
}

/**
 * Whether a request reads card_tops, which holds each card's top variant, for every card, where the
 * filter is on the variants' scope alone: for its order or floor, or for a browse by game and/or
 * set alone, which reads card_tops' rows alone.
 */
export function readsCardTops(request: Omit<CardPageRequest, 'priced'>): boolean {
  const { selector, filter, order } = request;
  const { onlyVariant, onlySku } = lookupScope(selector);
  const browseOnly = selector.by === 'browse' && !selector.q && !selector.number;
  return !onlyVariant && !onlySku && toppedScope(filter) && (browseOnly || needsTop(order));
}

export function cardPagePlan(request: CardPageRequest): CardPagePlan {
  const { selector, filter, order } = request;
  const region = regionParam(request.region);
  const { onlyVariant, onlySku } = lookupScope(selector);
  const sortedOrFloored = needsTop(order);
  const tops = request.priced === undefined ? undefined : topRegionMatch(request.priced, region.sql);
  // A browse by game and/or set alone reads a summary's rows alone (card_tops, or card_facets
  // for a kind filter in browse order): a page of a whole game, sorted or not, and its count,
  // then read narrow rows in an index's order rather than every card and a probe per card.
  const summary =
    selector.by === 'browse' ? browseSummary(selector, filter, region.sql, tops, sortedOrFloored) : undefined;
  let where: Sql[];
  let rank: Sql | undefined;
  let named: NamedSearch | undefined;
  if (summary) {
    where = summary.where;
  } else {
    const lookup = selector.by === 'browse' ? undefined : { onlySku, onlyVariant };
    const summarised = existenceSummarised(filter, request.region, lookup);
    const exists = cardHasVariant(filter, region, lookup);
    if (selector.by === 'browse') {
      const browse = browseConditions(selector);
      where = browse.where;
      if (browse.search) {
        rank = relevance(browse.search);
        if (
          !summarised &&
          !selector.setId &&
          !selector.number &&
          !sortedOrFloored &&
          answeredByFacets(filter)
        )
          named = {
            text: browse.search,
            selector,
            facets: facetMatch(filter, region.sql),
            cardHasVariant: exists,
          };
      }
    } else {
      where = [identifierCondition(selector.by, selector.value)];
    }
    where.push(exists);
  }
  const from = summary
    ? summary.from
    : !sortedOrFloored
      ? sql`cards c`
      : tops !== undefined
        ? sql`cards c ${topJoin(filter, tops)}`
        : sql`cards c ${topVariantJoin(filter, region.sql, onlySku)}`;
  if (order.minPrice !== undefined) where.push(sql`top.price >= ${order.minPrice}`);
  return {
    region,
    scope: { filter, onlyVariant, onlySku },
    from,
    uuid: summary ? sql.raw(`${summary.alias}.card_uuid`) : sql`c.uuid`,
    where: and(where),
    ordering: joined(ordering(order, summary?.alias, request.priced, rank)),
    counted: rank !== undefined || (selector.by === 'browse' && filter.updatedAfter !== undefined),
    facetCount:
      selector.by !== 'browse' || order.minPrice !== undefined || summary?.alias === 'top'
        ? undefined
        : facetCount(selector, filter, region.sql),
    named,
  };
}

/** The page's order: the sort asked for, a search's relevance, then the catalogue's order. */
function ordering(
  order: CardOrder,
  summary: 'top' | 'f' | undefined,
  priced: boolean | undefined,
  rank: Sql | undefined,
): Sql[] {
  const direction = order.direction === 'asc' ? 'asc' : 'desc';
  if (summary) {
    const s = sql.raw(summary);
    // A card's rank by id is unique: nothing after it changes a sort of the summary. Nothing
    // priced in the region: every value is null, and the card id alone orders.
    if (!order.by) return [sql`${s}.sort_key`, sql`${s}.card_uuid`];
    if (!priced) return [sql`top.card_rank`];
    return [topSortSql(ORDER_COLUMN[order.by], direction), sql`top.card_rank`];
  }
  return [
    ...(order.by
      ? [sql`${ORDER_COLUMN[order.by]} ${sql.raw(direction.toUpperCase())} NULLS LAST`, sql`c.id`]
      : []),
    ...(rank ? [sql`${rank} DESC`] : []),
    sql`c.sort_key`,
    sql`c.uuid`,
  ];
}
