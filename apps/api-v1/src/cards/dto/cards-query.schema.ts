import {
  CardOrder,
  CardSelector,
  CONDITION_NAMES,
  LANGUAGE_NAMES,
  MAX_UPDATED_PRICES,
  orderNeedsSet,
  parseCondition,
  parseLanguage,
  parseSearchText,
  selectIdentifier,
  unboundedOrder,
  VariantFilter,
} from '@tcg/domain';
import {
  choice,
  flag,
  integer,
  list,
  ParsedBy,
  QUERY_LIMITS,
  readPrice,
  requestSchema,
  text,
} from '@tcg/http-service';
import {
  HISTORY_DURATIONS,
  HistoryDuration,
  STATISTIC_WINDOWS,
  StatisticWindow,
  V1Presentation,
} from '@tcg/rendering';
import { printType } from './printing';

/** Characters of `q` (one cap for both versions, see QUERY_LIMITS). */
export const MAX_SEARCH_LENGTH = QUERY_LIMITS.search;
/**
 * The largest `offset`: OFFSET makes PostgreSQL produce and drop every row before the page, so the
 * cap bounds a page's work (issue 22: 50 ms at 10,000 on the largest game at `full`, 0.1 s at
 * 50,000). Deeper: narrow the browse to a set, or walk v2's cursors, which cost the same at any depth.
 */
export const MAX_OFFSET = 10_000;

/** How `/v1/cards` presents what it returns: the parameters POST reads from its query string too. */
export const PRESENTATION = {
  priceHistoryDuration: choice(Object.keys(HISTORY_DURATIONS) as HistoryDuration[], {
    default: '7d',
    description: 'How far back `priceHistory` goes from the latest observation.',
  }),
  include_price_history: flag({
    default: true,
    description: 'Include the `priceHistory` and `priceHistory30d` arrays (null when false).',
  }),
  include_statistics: list<StatisticWindow>({
    values: STATISTIC_WINDOWS,
    default: STATISTIC_WINDOWS,
    description: 'Statistic windows to fill; the flat fields of the others are null.',
    example: '7d,30d',
  }),
} as const;

/**
 * GET /v1/cards (docs/spec/interface.md table plus the docs/spec/decisions.md extensions `orderBy`, `order`,
 * `min_price`). Identifier parameters win over a search, the most specific first (variantId,
 * vendorSkuId, cardId, vendorId, opensetId, imagedbId). Unknown parameters are ignored (v1 is
 * lenient); unrecognised values of known ones are a 400 naming the parameter and what it accepts.
 */
export const CARDS_QUERY = requestSchema(
  {
    q: text({
      maxLength: MAX_SEARCH_LENGTH,
      schema: { type: 'string', minLength: 3, maxLength: MAX_SEARCH_LENGTH },
      parse: parseSearchText,
      description: 'General search on card name: at least 3 letters or digits in a row.',
      example: 'lightning bolt',
    }),
    game: text({
      description: 'Game ID or, case-insensitively, its display name.',
      example: 'magic-the-gathering',
    }),
    set: text({ description: 'Set ID.', example: 'magic-the-gathering-limited-edition-alpha' }),
    cardId: text({ description: 'Slug or UUID of a card.' }),
    variantId: text({ description: 'Slug or UUID of a variant: that card with that variant only.' }),
    vendorId: text({ description: 'Marketplace product ID.' }),
    opensetId: text({ description: 'Card-data provider ID.' }),
    imagedbId: text({ description: 'Card-data provider ID.' }),
    vendorSkuId: text({ description: 'Marketplace SKU ID (variant level).' }),
    number: text({ description: 'Card number within a set.', example: '232' }),
    printing: list({
      // A printing may carry v1's language suffix ("Normal - Japanese"); the print type is what matches.
      item: printType,
      description:
        'Printing types, case-insensitive; a ` - <Language>` suffix is ignored. Open vocabulary: an unknown printing matches nothing.',
      example: 'Normal,Foil',
    }),
    language: list({
      item: parseLanguage,
      accepted: LANGUAGE_NAMES,
      enum: LANGUAGE_NAMES,
      description:
        "Languages, case-insensitive. Narrows each card's `variants` and never removes cards; variants with no recorded language count as English; ignored with `variantId`.",
      example: 'English,Japanese',
    }),
    condition: list({
      item: parseCondition,
      accepted: CONDITION_NAMES,
      enum: CONDITION_NAMES,
      description: 'Conditions by short or long name, case-insensitive.',
      example: 'NM,LP',
    }),
    ...PRESENTATION,
    include_null_prices: flag({
      default: false,
      description: 'Include cards none of whose returned variants has a price; ignored with `q`.',
    }),
    updated_after: integer({
      minimum: 0,
      description: `Unix timestamp (seconds): only variants updated after it, and only cards left with one (delta sync). A browse whose timestamp reaches more than ${MAX_UPDATED_PRICES.toLocaleString('en-US')} prices is a 400: a full copy is the bulk download.`,
    }),
    limit: integer({
      minimum: 1,
      default: 20,
      description:
        "Cards per page; a value above the plan's maximum (20 free, 100 starter and professional, 200 enterprise) is clamped to it.",
    }),
    offset: integer({
      minimum: 0,
      maximum: MAX_OFFSET,
      default: 0,
      description: `Pagination offset, at most ${MAX_OFFSET.toLocaleString('en-US')}: deeper, narrow the browse to a \`set\` or walk /v2/cards' cursors.`,
    }),
    orderBy: choice(['price', '24h', '7d', '30d', '90d'], {
      ignoreCase: true,
      description:
        "Sort by the price or the change over a window of each card's highest-priced returned variant; ties break on card ID. Without it a search orders by relevance and a browse by set, then card number. With `condition`, `printing` or `updated_after` only within a `set` (else 400).",
    }),
    order: choice(['asc', 'desc'], {
      ignoreCase: true,
      default: 'desc',
      description: 'Direction of `orderBy`.',
    }),
    min_price: text({
      schema: { type: 'number', minimum: 0 },
      parse: (price, name) => readPrice(price, name, 'USD'),
      description:
        'Only cards priced at or above this, in USD (at most 2 decimals). With `condition`, `printing` or `updated_after` only within a `set` (else 400).',
      example: 10,
    }),
  },
  { unknown: 'ignore' },
);

/** GET /v1/cards' query as validated, parameter by parameter. */
export type CardsQueryParams = ParsedBy<typeof CARDS_QUERY>;

/** What a GET /v1/cards asks the read side for. */
export interface CardsQuery extends V1Presentation {
  /** Identifier selector (docs/spec/decisions.md precedence) or a browse/search; `game` is resolved later. */
  readonly selector: CardSelector;
  readonly game?: string;
  readonly q?: string;
  readonly filter: VariantFilter;
  readonly limit: number;
  readonly offset: number;
  readonly order: CardOrder;
}

/** The validated parameters as the read side's terms; `maxLimit` is the caller's plan's. */
export function toCardsQuery(params: CardsQueryParams, maxLimit: number): CardsQuery {
  // v1's identifier parameters are named as the identifiers are.
  const identifier = selectIdentifier((name) => params[name]);
  const { q } = params;
  const selector: CardSelector = identifier ?? { by: 'browse', setId: params.set, number: params.number, q };
  const isSearch = selector.by === 'browse' && q !== undefined;
  const filter: VariantFilter = {
    printings: params.printing,
    conditions: params.condition,
    languages: params.language,
    updatedAfter: params.updated_after,
    // Ignored with q (docs/spec/interface.md): a search shows cards whether priced or not.
    includeNullPrices: isSearch ? true : params.include_null_prices,
  };
  const order: CardOrder = { by: params.orderBy, direction: params.order, minPrice: params.min_price };
  const unbounded = unboundedOrder(selector, filter, order);
  if (unbounded)
    throw orderNeedsSet(
      unbounded === 'order' ? 'orderBy' : 'min_price',
      'condition, printing or updated_after',
      'set',
    );
  return {
    selector,
    game: selector.by === 'browse' ? params.game : undefined,
    q,
    filter,
    ...presentation(params),
    limit: Math.min(params.limit, maxLimit),
    offset: params.offset,
    order,
  };
}

/** The default, every window: one set for every request that does not choose. */
const EVERY_STATISTIC: ReadonlySet<StatisticWindow> = new Set(STATISTIC_WINDOWS);

/** How the cards are presented: GET's and POST's query alike. */
export function presentation(params: ParsedBy<typeof PRESENTATION_QUERY>): V1Presentation {
  return {
    historyDuration: params.priceHistoryDuration,
    includeHistory: params.include_price_history,
    statistics: params.include_statistics ? new Set(params.include_statistics) : EVERY_STATISTIC,
  };
}

/** The query string of POST /v1/cards: how to present the cards of the batch. */
export const PRESENTATION_QUERY = CARDS_QUERY.pick(
  Object.keys(PRESENTATION) as (keyof typeof PRESENTATION)[],
);

/** GET /v1/cards: the query string, validated, as the read side's terms. */
export function parseCardsQuery(raw: Record<string, unknown>, maxLimit: number): CardsQuery {
  return toCardsQuery(CARDS_QUERY.parse(raw), maxLimit);
}
