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
 * condition (`identifierCondition`) and the batch's resolution (`RESOLVE_IDENTIFIERS_SQL`), so the
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

/**
 * The kind of an identifier's value in `RESOLVE_IDENTIFIERS_SQL`: the identifier, and for those
 * that take a UUID, which form this value has.
 */
export function identifierKind(by: CardIdentifier, value: string): string {
  return IDENTIFIER_SOURCE[by].uuid ? `${by}:${isUuid(value) ? 'uuid' : 'slug'}` : by;
}

/**
 * Resolves many identifiers in one statement: `$1` ordinals, `$2` kinds (`identifierKind`), `$3`
 * values; each row is an ordinal with its card and, for a variant identifier, its variant.
 * Built once from IDENTIFIER_SOURCE, so its text (and prepared statement) never varies.
 */
export const RESOLVE_IDENTIFIERS_SQL = `WITH r AS (SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) AS r(ordinal, kind, val))
${(Object.entries(IDENTIFIER_SOURCE) as [CardIdentifier, (typeof IDENTIFIER_SOURCE)[CardIdentifier]][])
  .flatMap(([by, source]) =>
    (source.uuid ? (['slug', 'uuid'] as const) : ([undefined] as const)).map((form) => {
      const kind = form ? `${by}:${form}` : by;
      const match = form === 'uuid' ? `x.uuid = lower(r.val)::uuid` : `x.${source.column} = r.val`;
      return source.table === 'cards'
        ? `SELECT r.ordinal, x.uuid AS card_uuid, NULL::uuid AS variant_uuid FROM r JOIN cards x ON r.kind = '${kind}' AND ${match}`
        : `SELECT r.ordinal, x.card_uuid, x.uuid AS variant_uuid FROM r JOIN variants x ON r.kind = '${kind}' AND ${match}`;
    }),
  )
  .join('\nUNION ALL ')}
ORDER BY 1, 2`;

/** A search's bind placeholders: the lower-cased text, and it as a LIKE substring pattern. */
export interface SearchText {
  readonly q: string;
  readonly like: string;
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
  if (selector.gameId) where.push(`c.game_id = ${p(selector.gameId)}`);
  // By the set's uuid rather than through the join: the planner can then read cards_set_sort_idx in
  // browse order and stop at the end of the page.
  if (selector.setId) where.push(`c.set_uuid = (SELECT uuid FROM sets WHERE id = ${p(selector.setId)})`);
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
  if (filter.updatedAfter !== undefined) c.push(`vp.updated_at > ${p(filter.updatedAfter)}`);
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
 * The same `top` read from the precomputed card_values, valid when `summarisedScope` holds:
 * one index probe per card instead of a lateral join over its variants.
 */
export const SUMMARISED_TOP_JOIN = 'LEFT JOIN card_values top ON top.card_uuid = c.uuid';

/**
 * Whether a request's variant scope is the summaries' (a raw variant priced in NA, no variant
 * filter; language never matters for existence, order or min_price), so card_values answers it.
 */
export function summarisedScope(filter: VariantFilter, region: string): boolean {
  return (
    region === 'NA' &&
    !filter.printings &&
    !filter.conditions &&
    filter.updatedAfter === undefined &&
    (filter.graded ?? 'exclude') === 'exclude' &&
    !filter.gradingCompany &&
    !filter.grades
  );
}

/**
 * `EXISTS` a variant of `c` that the filters return (language aside: it never removes a card);
 * with `onlyVariant` (a UUID or slug), that variant.
 */
export function hasVariant(
  filter: VariantFilter,
  p: Bind,
  region: string,
  onlySku?: string,
  onlyVariant?: string,
): string {
  return `EXISTS (SELECT 1 FROM variants v LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${region}
                  WHERE v.card_uuid = c.uuid AND ${variantConditions(filter, p, false, onlySku)}${
                    onlyVariant ? ` AND ${refClause(onlyVariant, p, 'v')}` : ''
                  }${filter.includeNullPrices ? '' : ' AND vp.variant_uuid IS NOT NULL'})`;
}
