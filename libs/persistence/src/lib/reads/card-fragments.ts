import { isUuid, restrictsKinds, scopeOnly } from '@tcg/domain';
import type { BrowseSelector, CardIdentifier, VariantFilter } from '@tcg/domain';
import { sql } from 'kysely';
import { and, shared, type Sql } from '../sql/compile';
import { escapeLike } from '../sql/like-pattern';
import { type ListForm, variantConditions } from '../sql/variant-conditions';

// The conditions the card reads share, as Kysely fragments over fixed aliases: `c` cards, `s`
// sets, `g` games, `v` variants, `vp` their prices in the read's region, `top` card_tops (or the
// top variant's lateral join), `f` card_facets. A region is a `shared` value: every test of it in
// a statement is one parameter. Identifiers and literals come from the whitelists here.

/** The card_tops (or top variant) column each sort reads. */
export const ORDER_COLUMN = {
  price: sql.raw('top.price'),
  '24h': sql.raw('top.change_24h'),
  '7d': sql.raw('top.change_7d'),
  '30d': sql.raw('top.change_30d'),
  '90d': sql.raw('top.change_90d'),
} as const;

const EMPTY = sql``;

/** `uuid = …` for a UUID, `id = …` (the slug) otherwise. */
export function refClause(ref: string, alias: 'c' | 'v' | 'vr'): Sql {
  const a = sql.raw(alias);
  return isUuid(ref) ? sql`${a}.uuid = ${ref.toLowerCase()}::uuid` : sql`${a}.id = ${ref}`;
}

/**
 * Where each identifier is looked up: the table (`cards` or `variants`) and the column its value
 * matches; an identifier that also takes a UUID matches its slug on `id` (`refClause`). One table
 * for GET's condition (`identifierCondition`) and the batch's resolution
 * (`resolveIdentifiersStatement`), so the two cannot look the same identifier up in different places.
 */
export const IDENTIFIER_SOURCE: Readonly<
  Record<
    CardIdentifier,
    { readonly table: 'cards' | 'variants'; readonly column: string; readonly uuid?: true }
  >
> = {
  variantId: { table: 'variants', column: 'id', uuid: true },
  vendorSkuId: { table: 'variants', column: 'vendor_sku_id' },
  cardId: { table: 'cards', column: 'id', uuid: true },
  vendorId: { table: 'cards', column: 'vendor_id' },
  opensetId: { table: 'cards', column: 'openset_id' },
  imagedbId: { table: 'cards', column: 'imagedb_id' },
};

/**
 * The condition on `c` (cards) that picks the card an identifier names: its own column, or the
 * card of the variant whose column matches. A UUID is matched on the UUID column where the
 * identifier has one.
 */
export function identifierCondition(by: CardIdentifier, value: string): Sql {
  const source = IDENTIFIER_SOURCE[by];
  const match = (alias: 'c' | 'vr') =>
    source.uuid ? refClause(value, alias) : sql`${sql.raw(alias)}.${sql.raw(source.column)} = ${value}`;
  return source.table === 'cards'
    ? match('c')
    : sql`c.uuid = (SELECT card_uuid FROM variants vr WHERE ${match('vr')})`;
}

/** A search's values: the lower-cased text, and it as LIKE substring and prefix patterns (all shared). */
export interface SearchText {
  readonly q: Sql;
  readonly like: Sql;
  readonly prefix: Sql;
}

/**
 * A browse's game and set as conditions on `alias` (cards, or a summary carrying `game_id` and
 * `set_uuid`), the game first.
 */
export function gameAndSet(selector: BrowseSelector, alias: 'c' | 'top' | 'f'): Sql[] {
  const a = sql.raw(alias);
  const where: Sql[] = [];
  if (selector.gameId) where.push(sql`${a}.game_id = ${selector.gameId}`);
  if (selector.setId) where.push(sql`${a}.set_uuid = (SELECT uuid FROM sets WHERE id = ${selector.setId})`);
  return where;
}

/**
 * Conditions on `c` (cards) and `s` (sets) that pick the cards a browse or search names. A search
 * matches a name containing the text, similar to it as a whole (trigram similarity ≥ 0.3, so
 * typos pass), or containing a word similar to it (word similarity ≥ 0.6, so a misspelt word of a
 * long name passes). All three are operators the name's trigram GIN index serves.
 */
export function browseConditions(selector: BrowseSelector): { where: Sql[]; search?: SearchText } {
  // By the set's uuid rather than through the join: the planner can then read cards_set_sort_idx in
  // browse order and stop at the end of the page.
  const where = gameAndSet(selector, 'c');
  if (selector.number) where.push(sql`c.number = ${selector.number}`);
  if (!selector.q) return { where };
  const text = selector.q.toLowerCase();
  const escaped = escapeLike(text);
  const search = { q: shared(text), like: shared(`%${escaped}%`), prefix: shared(`${escaped}%`) };
  where.push(
    sql`(lower(c.name) LIKE ${search.like} OR lower(c.name) % ${search.q} OR ${search.q} <% lower(c.name))`,
  );
  return { where, search };
}

/**
 * Relevance of a name to the search text, in tiers: the name itself, then a name starting with
 * it, then one containing it, then a fuzzy match; within a tier the better of whole-name and
 * best-word similarity (in [0, 1], so one number orders like the tuple). `lightn` puts
 * "Lightning Bolt" before "Express Lightning (Red)".
 */
export function relevance(search: SearchText, name: Sql = sql`lower(c.name)`): Sql {
  return sql`((${name} = ${search.q})::int + (${name} LIKE ${search.prefix})::int
           + (${name} LIKE ${search.like})::int
           + greatest(similarity(${name}, ${search.q}), word_similarity(${search.q}, ${name})))::float8`;
}

/**
 * The variants `v` (with their prices `vp`) a read returns: the filter's, or the one variant an
 * identifier names, to which the language rule does not apply (docs/spec/interface.md rule 4).
 */
export function variantWhere(
  filter: VariantFilter,
  onlyVariant?: string,
  onlySku?: string,
  lists: ListForm = 'any',
): Sql {
  const conditions = variantConditions(filter, !onlyVariant, onlySku, lists);
  return onlyVariant ? sql`${conditions} AND ${refClause(onlyVariant, 'v')}` : conditions;
}

/**
 * The card's highest-priced variant among those a request returns, in `region` (docs/spec/decisions.md: what
 * sorting and `min_price` read). `language` is left out on purpose: docs/spec/interface.md says it never
 * changes the total, the pagination or (v2) the cursors, which it would if it moved a card in the
 * order or past `min_price`. A lateral join aliased `top`.
 */
export function topVariantJoin(filter: VariantFilter, region: Sql, onlySku?: string): Sql {
  return sql`LEFT JOIN LATERAL (
           SELECT vp.price, vp.change_24h, vp.change_7d, vp.change_30d, vp.change_90d
           FROM variants v JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${region}
           WHERE v.card_uuid = c.uuid AND ${variantConditions(filter, false, onlySku)}
           ORDER BY vp.price DESC, v.uuid LIMIT 1) top ON true`;
}

/**
 * Whether card_tops answers a request's order and `min_price` (CardFacets migration): a filter on
 * the variants' scope alone (raw, graded or both), in any region, priced or not.
 */
export function toppedScope(filter: VariantFilter): boolean {
  return scopeOnly(filter);
}

/** The card_tops scope a filter's `graded` names. */
function topScope(filter: VariantFilter): 'raw' | 'graded' | 'any' {
  return ({ exclude: 'raw', only: 'graded', include: 'any' } as const)[filter.graded ?? 'exclude'];
}

/**
 * The condition on card_tops rows `top` in the region a statement reads, given `readTopRegion`'s
 * answer: the request's region where something is priced, else `*`, whose rows have every card
 * with null values (card_tops holds only the regions with a price); the region keeps its type
 * either way. A priced region also says `<> '*'`, the predicate of the sort indexes, which leave
 * `*` out (SummariesRebuiltBeside migration): a plan made for any value of the parameter may then
 * read them.
 */
export function topRegionMatch(priced: boolean, region: Sql): Sql {
  return priced
    ? sql`top.region = ${region}::text AND top.region <> '*'`
    : sql`top.region = (CASE WHEN false THEN ${region}::text ELSE '*' END)`;
}

/**
 * The conditions on card_tops rows `top` of a browse by game and/or set, in the filter's scope
 * (`toppedScope`) and region: a row is a card the browse returns, priced in the region unless the
 * filter includes unpriced cards. A browse of a whole game then reads these narrow rows alone.
 */
function topConditions(
  selector: BrowseSelector,
  filter: VariantFilter,
  /** The region card_tops reads (`topRegionMatch`). */
  tops: Sql,
): Sql[] {
  const where = [tops, sql`top.scope = ${sql.lit(topScope(filter))}`];
  where.push(...gameAndSet(selector, 'top'));
  if (!filter.includeNullPrices) where.push(sql`top.price IS NOT NULL`);
  return where;
}

/** card_tops as `top` for the cards `c` of a request in the filter's scope, in `tops` (`topRegionMatch`). */
export function topJoin(filter: VariantFilter, tops: Sql): Sql {
  return sql`JOIN card_tops top ON top.card_uuid = c.uuid AND ${tops} AND top.scope = ${sql.lit(topScope(filter))}`;
}

/**
 * Whether a request's variant scope is card_values' (a raw variant priced in NA, no variant
 * filter; language never matters for existence or count), so card_values answers them.
 */
export function summarisedScope(filter: VariantFilter, region: string): boolean {
  return region === 'NA' && toppedScope(filter) && topScope(filter) === 'raw';
}

/** The one variant or SKU a lookup's identifier names, if any (none: a card identifier). */
export interface VariantLookup {
  readonly onlySku?: string;
  readonly onlyVariant?: string;
}

/** Whether card_values answers whether a card has a variant the filters return (`cardHasVariant`). */
export function existenceSummarised(filter: VariantFilter, region: string, lookup?: VariantLookup): boolean {
  return (
    !lookup?.onlyVariant && !lookup?.onlySku && summarisedScope(filter, region) && !filter.includeNullPrices
  );
}

/**
 * Whether `c` has a variant the filters return in `region`, as a page's cards must (language
 * aside). In the summaries' scope (a raw variant priced in NA, no variant filter) card_values
 * answers: one index probe per card instead of a join over its variants. Else `hasVariant`;
 * `lookup` for a card an identifier names (the one variant or SKU it names, if any).
 */
export function cardHasVariant(
  filter: ResolvedFilter,
  region: RegionParam,
  lookup?: VariantLookup,
  lists: ListForm = 'any',
): Sql {
  return existenceSummarised(filter, region.value, lookup)
    ? // The summaries hold NA prices; saying so also gives the region parameter its type.
      sql`${region.sql}::text = 'NA' AND EXISTS (SELECT 1 FROM card_values t WHERE t.card_uuid = c.uuid)`
    : hasVariant(filter, region.sql, lookup, lists);
}

/**
 * `EXISTS` a variant of `c` that the filters return (language aside: it never removes a card).
 * A browse's is read from the summaries (`facetMatch`) when they answer the filter, and for
 * `updatedAfter` from the prices changed since, which a delta sync needs as soon as they are
 * committed. A lookup's checks its one card's variants: with `onlyVariant` (a UUID or slug) or
 * `onlySku`, that variant.
 */
export function hasVariant(
  filter: ResolvedFilter,
  region: Sql,
  lookup?: VariantLookup,
  lists: ListForm = 'any',
): Sql {
  if (!lookup && answeredByFacets(filter)) {
    // OFFSET 0 keeps the test a probe per card the other conditions leave (a search's few
    // matches, a page's walk in order) rather than a join the planner may build over every
    // card's facets: a hash of all of them cost a 20-card search 30 ms where the probes take 2.
    return sql`EXISTS (SELECT 1 FROM card_facets f WHERE f.card_uuid = c.uuid AND ${facetMatch(filter, region)} OFFSET 0)`;
  }
  if (!lookup && filter.updatedAfter !== undefined) {
    // The prices changed after the instant, through their (region, updated_at) index: bounded by
    // MAX_UPDATED_PRICES (`readUpdatedPricesOver`), where a probe per card would visit every variant.
    const { updatedAfter, ...rest } = filter;
    return sql`c.uuid IN (SELECT v.card_uuid FROM variant_prices vp JOIN variants v ON v.uuid = vp.variant_uuid
                       WHERE vp.region = ${region} AND vp.updated_at > ${updatedAfter}
                       AND ${variantConditions(rest, false)})`;
  }
  const onlyVariant = lookup?.onlyVariant ? sql` AND ${refClause(lookup.onlyVariant, 'v')}` : EMPTY;
  const priced = filter.includeNullPrices ? EMPTY : sql` AND vp.variant_uuid IS NOT NULL`;
  return sql`EXISTS (SELECT 1 FROM variants v LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${region}
                  WHERE v.card_uuid = c.uuid AND ${variantConditions(filter, false, lookup?.onlySku, lists)}${onlyVariant}${priced})`;
}

/**
 * A filter with, where it restricts variants beyond their scope (raw, graded or both), the ids of
 * the variant kinds it accepts (`readAcceptedKinds`): what card_facets is tested against.
 */
export type ResolvedFilter = VariantFilter & { readonly kinds?: readonly number[] };

/** Whether card_facets answers the filter: no `updatedAfter`, and its kinds resolved if it needs them. */
export function answeredByFacets(filter: ResolvedFilter): boolean {
  return filter.updatedAfter === undefined && (!restrictsKinds(filter) || filter.kinds !== undefined);
}

/**
 * The condition on a card_facets row `f` that its card has a variant the filter returns, priced in
 * the region unless the filter includes unpriced cards (CardFacets migration): the row's kinds
 * overlap the kinds the filter accepts, or for a filter on the scope alone, the scope's id
 * (-1 raw, -2 graded). Only where `answeredByFacets`.
 */
export function facetMatch(filter: ResolvedFilter, region: Sql): Sql {
  // The row of every kind is region `*`; its test still names the region (a no-op), as it did
  // when every statement bound the region as `$1` and each parameter needed a type.
  const row = filter.includeNullPrices
    ? sql`f.region = '*' AND ${region}::text IS NOT NULL`
    : sql`f.region = ${region}`;
  if (!restrictsKinds(filter)) {
    const scopes = { exclude: '{-1}', only: '{-2}', include: '{-1,-2}' }[filter.graded ?? 'exclude'];
    return sql`${row} AND f.kinds && ${sql.lit(scopes)}::int[]`;
  }
  return sql`${row} AND f.kinds && ${filter.kinds}::int[]`;
}

/** The conditions on card_facets rows `f` of a browse by game and/or set alone (`facetMatch`). */
function facetConditions(selector: BrowseSelector, filter: ResolvedFilter, region: Sql): Sql[] {
  return [facetMatch(filter, region), ...gameAndSet(selector, 'f')];
}

/**
 * The count of a browse by game and/or set alone from card_facet_counts, the cards of each set
 * grouped by their kinds (the same columns as card_facets): a few rows per set, without visiting
 * cards. Undefined when the browse has other conditions or the filter `updatedAfter`.
 */
export function facetCount(selector: BrowseSelector, filter: ResolvedFilter, region: Sql): Sql | undefined {
  if (selector.q || selector.number || !answeredByFacets(filter)) return undefined;
  return sql`SELECT coalesce(sum(f.cards), 0)::int AS n FROM card_facet_counts f
          WHERE ${and(facetConditions(selector, filter, region))}`;
}

/**
 * Rows of a summary that stand for the cards of a browse, and the summary's alias: `card_uuid`,
 * `sort_key` (and card_tops' values) on each row.
 */
export interface SummaryRows {
  readonly from: Sql;
  readonly alias: 'top' | 'f';
  readonly where: Sql[];
}

/**
 * Where a browse by game and/or set alone (no search, no number) is read without visiting cards:
 * card_tops in a scope it holds (`tops`: the condition on its region, `topRegionMatch`; sorted or
 * not), card_facets for a filter on variant kinds left in browse order. Undefined otherwise (a search, a number,
 * `updatedAfter`, a sort or floor over a kind filter): the cards are read.
 */
export function browseSummary(
  selector: BrowseSelector,
  filter: ResolvedFilter,
  region: Sql,
  tops: Sql | undefined,
  sortedOrFloored: boolean,
): SummaryRows | undefined {
  if (selector.q || selector.number) return undefined;
  if (tops !== undefined)
    return { from: sql`card_tops top`, alias: 'top', where: topConditions(selector, filter, tops) };
  if (!sortedOrFloored && answeredByFacets(filter))
    return { from: sql`card_facets f`, alias: 'f', where: facetConditions(selector, filter, region) };
  return undefined;
}

/**
 * A card_tops sort on `column` in `direction`, unpriced (null) last, in the form the CardFacets
 * migration indexes: a page of a sort reads the index in order and stops.
 */
export function topSortSql(column: Sql, direction: 'asc' | 'desc'): Sql {
  return sql`${topSortKey(column, direction)} ${sql.raw(direction === 'desc' ? 'DESC' : 'ASC')}`;
}

/** The value `topSortSql` sorts on: unpriced (null) as the end the direction reaches last. */
export function topSortKey(column: Sql, direction: 'asc' | 'desc'): Sql {
  return sql`coalesce(${column}::float8, ${unpricedEnd(direction)})`;
}

/** Where an unpriced card sorts: past every price in the direction. */
export function unpricedEnd(direction: 'asc' | 'desc'): Sql {
  return sql.lit(direction === 'desc' ? '-Infinity' : 'Infinity');
}

/** A statement's region: its value (what decides summaries and stored documents) and its parameter. */
export interface RegionParam {
  readonly value: string;
  /** Shared: every test of the region in a statement is one parameter. */
  readonly sql: Sql;
}

export function regionParam(value: string): RegionParam {
  return { value, sql: shared(value) };
}
