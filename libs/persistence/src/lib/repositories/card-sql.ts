import { restrictsKinds, scopeOnly } from '@tcg/domain';
import type { BrowseSelector, CardIdentifier, VariantFilter } from '@tcg/domain';

export const ORDER_COLUMN = {
  price: 'top.price',
  '24h': 'top.change_24h',
  '7d': 'top.change_7d',
  '30d': 'top.change_30d',
  '90d': 'top.change_90d',
} as const;

/** Appends a bind parameter and returns its placeholder. */
export type Bind = (value: unknown) => string;

export function binder(params: unknown[]): Bind {
  return (v) => {
    params.push(v);
    return `$${params.length}`;
  };
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** `uuid = …` for a UUID, `id = …` (the slug) otherwise. */
export function refClause(ref: string, p: Bind, alias: string): string {
  return isUuid(ref) ? `${alias}.uuid = ${p(ref.toLowerCase())}::uuid` : `${alias}.id = ${p(ref)}`;
}

/**
 * Where each identifier is looked up: the table (`cards` or `variants`) and the column its value
 * matches; an identifier that also takes a UUID matches its slug on `id` (`refClause`). One table for GET's
 * condition (`identifierCondition`) and the batch's resolution (`resolveIdentifiersStatement`), so the
 * two cannot look the same identifier up in different places.
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
export function identifierCondition(by: CardIdentifier, value: string, p: Bind): string {
  const source = IDENTIFIER_SOURCE[by];
  const match = (alias: string) =>
    source.uuid ? refClause(value, p, alias) : `${alias}.${source.column} = ${p(value)}`;
  return source.table === 'cards'
    ? match('c')
    : `c.uuid = (SELECT card_uuid FROM variants vr WHERE ${match('vr')})`;
}

/** A search's bind placeholders: the lower-cased text, and it as a LIKE substring pattern. */
export interface SearchText {
  readonly q: string;
  readonly like: string;
}

/**
 * A browse's game and set as conditions on `alias` (cards, or a summary carrying `game_id` and
 * `set_uuid`), the game bound first.
 */
function gameAndSet(selector: BrowseSelector, p: Bind, alias: string): string[] {
  const where: string[] = [];
  if (selector.gameId) where.push(`${alias}.game_id = ${p(selector.gameId)}`);
  if (selector.setId)
    where.push(`${alias}.set_uuid = (SELECT uuid FROM sets WHERE id = ${p(selector.setId)})`);
  return where;
}

/**
 * Conditions on `c` (cards) and `s` (sets) that pick the cards a browse or search names. A search
 * matches a name containing the text, similar to it as a whole (trigram similarity ≥ 0.3, so
 * typos pass), or containing a word similar to it (word similarity ≥ 0.6, so a misspelt word of a
 * long name passes). All three are operators the name's trigram GIN index serves.
 */
export function browseConditions(
  selector: BrowseSelector,
  p: Bind,
): { where: string[]; search?: SearchText } {
  const where: string[] = [];
  // By the set's uuid rather than through the join: the planner can then read cards_set_sort_idx in
  // browse order and stop at the end of the page.
  where.push(...gameAndSet(selector, p, 'c'));
  if (selector.number) where.push(`c.number = ${p(selector.number)}`);
  if (!selector.q) return { where };
  const text = selector.q.toLowerCase();
  const search = { q: p(text), like: p(`%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`) };
  where.push(
    `(lower(c.name) LIKE ${search.like} OR lower(c.name) % ${search.q} OR ${search.q} <% lower(c.name))`,
  );
  return { where, search };
}

/**
 * Relevance of a name to the search text: containing it outranks any fuzzy match, then the better
 * of whole-name and best-word similarity (each in [0, 1], so one number orders like the pair).
 */
export function relevance(search: SearchText): string {
  return `((lower(c.name) LIKE ${search.like})::int
           + greatest(similarity(lower(c.name), ${search.q}), word_similarity(${search.q}, lower(c.name))))::float8`;
}

/** SQL over `v` (variants) and `vp` (its prices in the primary region) for the variant filters. */
export function variantConditions(
  filter: VariantFilter,
  p: Bind,
  withLanguage: boolean,
  onlySku?: string,
): string {
  const graded = filter.graded ?? 'exclude';
  const c = graded === 'include' ? [] : [`v.type = '${graded === 'only' ? 'graded' : 'raw'}'`];
  if (filter.gradingCompany) c.push(`(v.type = 'raw' OR v.grading_company = ${p(filter.gradingCompany)})`);
  if (filter.grades) {
    const numeric = filter.grades.filter((g): g is number => g !== null);
    const authentic = filter.grades.includes(null) ? ' OR v.grade IS NULL' : '';
    c.push(`(v.type = 'raw' OR v.grade = ANY(${p(numeric)}::numeric[])${authentic})`);
  }
  if (filter.printings) c.push(`lower(v.printing) = ANY(${p(filter.printings)}::text[])`);
  if (filter.conditions) c.push(`v.condition = ANY(${p(filter.conditions)}::text[])`);
  if (withLanguage && filter.languages) c.push(`v.language = ANY(${p(filter.languages)}::text[])`);
  // `+ 0`: these conditions pick a card's own variants, and a plain comparison let the planner,
  // whose statistics put one price after a recent instant, read every recent price through the
  // (region, updated_at) index once per card (5 s for a page once 10,000 prices had changed).
  if (filter.updatedAfter !== undefined) c.push(`vp.updated_at + 0 > ${p(filter.updatedAfter)}`);
  if (onlySku) c.push(`v.vendor_sku_id = ${p(onlySku)}`);
  return c.length === 0 ? 'true' : c.join(' AND ');
}

/**
 * The card's highest-priced variant among those a request returns, in `region` (docs/spec/decisions.md: what
 * sorting and `min_price` read). `language` is left out on purpose: docs/spec/interface.md says it never
 * changes the total, the pagination or (v2) the cursors, which it would if it moved a card in the
 * order or past `min_price`. A lateral join aliased `top`.
 */
export function topVariantJoin(filter: VariantFilter, p: Bind, region: string, onlySku?: string): string {
  return `LEFT JOIN LATERAL (
           SELECT vp.price, vp.change_24h, vp.change_7d, vp.change_30d, vp.change_90d
           FROM variants v JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${region}
           WHERE v.card_uuid = c.uuid AND ${variantConditions(filter, p, false, onlySku)}
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
 * The card_tops region of a statement whose `$1` is the request's region, given `readTopRegion`'s
 * answer: a constant condition the planner folds (and `$1` keeps its type either way).
 */
export function topRegionSql(priced: boolean): string {
  return `(CASE WHEN ${priced} THEN $1::text ELSE '*' END)`;
}

/**
 * The conditions on card_tops rows `top` of a browse by game and/or set, in the filter's scope
 * (`toppedScope`) and region: a row is a card the browse returns, priced in the region unless the
 * filter includes unpriced cards. A browse of a whole game then reads these narrow rows alone.
 */
function topConditions(
  selector: BrowseSelector,
  filter: VariantFilter,
  p: Bind,
  /** The region card_tops reads (`topRegionSql`). */
  topRegion: string,
): string[] {
  const where = [`top.region = ${topRegion}`, `top.scope = '${topScope(filter)}'`];
  where.push(...gameAndSet(selector, p, 'top'));
  if (!filter.includeNullPrices) where.push('top.price IS NOT NULL');
  return where;
}

/** card_tops as `top` for the cards `c` of a request in the filter's scope, in `topRegion` (`topRegionSql`). */
export function topJoin(filter: VariantFilter, topRegion: string): string {
  return `JOIN card_tops top ON top.card_uuid = c.uuid AND top.region = ${topRegion} AND top.scope = '${topScope(filter)}'`;
}

/**
 * Whether a request's variant scope is card_values' (a raw variant priced in NA, no variant
 * filter; language never matters for existence or count), so card_values answers them.
 */
export function summarisedScope(filter: VariantFilter, region: string): boolean {
  return region === 'NA' && toppedScope(filter) && topScope(filter) === 'raw';
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
  p: Bind,
  region: string,
  lookup?: { readonly onlySku?: string; readonly onlyVariant?: string },
): string {
  if (!lookup && answeredByFacets(filter)) {
    // OFFSET 0 keeps the test a probe per card the other conditions leave (a search's few
    // matches, a page's walk in order) rather than a join the planner may build over every
    // card's facets: a hash of all of them cost a 20-card search 30 ms where the probes take 2.
    return `EXISTS (SELECT 1 FROM card_facets f WHERE f.card_uuid = c.uuid AND ${facetMatch(filter, p, region)} OFFSET 0)`;
  }
  if (!lookup && filter.updatedAfter !== undefined) {
    // The prices changed after the instant, through their (region, updated_at) index: bounded by
    // MAX_UPDATED_PRICES (`readUpdatedPricesOver`), where a probe per card would visit every variant.
    const { updatedAfter, ...rest } = filter;
    return `c.uuid IN (SELECT v.card_uuid FROM variant_prices vp JOIN variants v ON v.uuid = vp.variant_uuid
                       WHERE vp.region = ${region} AND vp.updated_at > ${p(updatedAfter)}
                       AND ${variantConditions(rest, p, false)})`;
  }
  return `EXISTS (SELECT 1 FROM variants v LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${region}
                  WHERE v.card_uuid = c.uuid AND ${variantConditions(filter, p, false, lookup?.onlySku)}${
                    lookup?.onlyVariant ? ` AND ${refClause(lookup.onlyVariant, p, 'v')}` : ''
                  }${filter.includeNullPrices ? '' : ' AND vp.variant_uuid IS NOT NULL'})`;
}

/**
 * A filter with, where it restricts variants beyond their scope (raw, graded or both), the ids of
 * the variant kinds it accepts (`acceptedKinds`): what card_facets is tested against.
 */
export type ResolvedFilter = VariantFilter & { readonly kinds?: readonly number[] };

/**
 * The filter with the ids of the variant kinds it accepts, read from variant_kinds by the same
 * conditions as variants, in a statement of their own: as a parameter of the page's statement
 * rather than a subquery of it, the planner sees how many cards they leave (a subquery's result is
 * unknown when it plans, and the default guess of 1 % made it sort the whole game for a page).
 */
export async function acceptedKinds(
  run: (sql: string, params: unknown[]) => Promise<{ ids: number[] }[]>,
  filter: VariantFilter,
): Promise<ResolvedFilter> {
  if (!restrictsKinds(filter) || filter.updatedAfter !== undefined) return filter;
  const params: unknown[] = [];
  const [row] = await run(
    `SELECT coalesce(array_agg(v.id), '{}') AS ids FROM variant_kinds v WHERE ${variantConditions(filter, binder(params), false)}`,
    params,
  );
  return { ...filter, kinds: row!.ids };
}

/** Whether card_facets answers the filter: no `updatedAfter`, and its kinds resolved if it needs them. */
function answeredByFacets(filter: ResolvedFilter): boolean {
  return filter.updatedAfter === undefined && (!restrictsKinds(filter) || filter.kinds !== undefined);
}

/**
 * The condition on a card_facets row `f` that its card has a variant the filter returns, priced in
 * the region unless the filter includes unpriced cards (CardFacets migration): the row's kinds
 * overlap the kinds the filter accepts, or for a filter on the scope alone, the scope's id
 * (-1 raw, -2 graded). Only where `answeredByFacets`.
 */
function facetMatch(filter: ResolvedFilter, p: Bind, region: string): string {
  // The row of every kind is region `*`; its test still names the region (a no-op) so that the
  // region's parameter has a type in every statement.
  const row = filter.includeNullPrices
    ? `f.region = '*' AND ${region}::text IS NOT NULL`
    : `f.region = ${region}`;
  if (!restrictsKinds(filter)) {
    const scopes = { exclude: '{-1}', only: '{-2}', include: '{-1,-2}' }[filter.graded ?? 'exclude'];
    return `${row} AND f.kinds && '${scopes}'::int[]`;
  }
  return `${row} AND f.kinds && ${p(filter.kinds)}::int[]`;
}

/** The conditions on card_facets rows `f` of a browse by game and/or set alone (`facetMatch`). */
function facetConditions(
  selector: BrowseSelector,
  filter: ResolvedFilter,
  p: Bind,
  region: string,
): string[] {
  return [facetMatch(filter, p, region), ...gameAndSet(selector, p, 'f')];
}

/**
 * The count of a browse by game and/or set alone from card_facet_counts, the cards of each set
 * grouped by their kinds (the same columns as card_facets): a few rows per set, without visiting
 * cards. Undefined when the browse has other conditions or the filter `updatedAfter`.
 */
export function facetCountSql(
  selector: BrowseSelector,
  filter: ResolvedFilter,
  p: Bind,
  region: string,
): string | undefined {
  if (selector.q || selector.number || !answeredByFacets(filter)) return undefined;
  return `SELECT coalesce(sum(f.cards), 0)::int AS n FROM card_facet_counts f
          WHERE ${facetConditions(selector, filter, p, region).join(' AND ')}`;
}

/**
 * Rows of a summary that stand for the cards of a browse, and the summary's alias: `card_uuid`,
 * `sort_key` (and card_tops' values) on each row.
 */
interface SummaryRows {
  readonly from: string;
  readonly alias: 'top' | 'f';
  readonly where: string[];
}

/**
 * Where a browse by game and/or set alone (no search, no number) is read without visiting cards:
 * card_tops in a scope it holds (`topRegion`: `readTopRegion`'s region, sorted or not), card_facets
 * for a filter on variant kinds left in browse order. Undefined otherwise (a search, a number,
 * `updatedAfter`, a sort or floor over a kind filter): the cards are read.
 */
export function browseSummary(
  selector: BrowseSelector,
  filter: ResolvedFilter,
  p: Bind,
  region: string,
  topRegion: string | undefined,
  sortedOrFloored: boolean,
): SummaryRows | undefined {
  if (selector.q || selector.number) return undefined;
  if (topRegion !== undefined)
    return { from: 'card_tops top', alias: 'top', where: topConditions(selector, filter, p, topRegion) };
  if (!sortedOrFloored && answeredByFacets(filter))
    return { from: 'card_facets f', alias: 'f', where: facetConditions(selector, filter, p, region) };
  return undefined;
}

/**
 * A card_tops sort on `column` in `direction`, unpriced (null) last, in the form the CardFacets
 * migration indexes: a page of a sort reads the index in order and stops.
 */
export function topSortSql(column: string, direction: 'asc' | 'desc'): string {
  return `${topSortKey(column, direction)} ${direction === 'desc' ? 'DESC' : 'ASC'}`;
}

/** The value `topSortSql` sorts on: unpriced (null) as the end the direction reaches last. */
export function topSortKey(column: string, direction: 'asc' | 'desc'): string {
  return `coalesce(${column}::float8, ${unpricedEnd(direction)})`;
}

/** Where an unpriced card sorts: past every price in the direction. */
export function unpricedEnd(direction: 'asc' | 'desc'): string {
  return direction === 'desc' ? `'-Infinity'` : `'Infinity'`;
}
