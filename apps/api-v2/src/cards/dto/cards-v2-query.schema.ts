import {
  CardIdentifier,
  CardSelector,
  GRADING_COMPANIES,
  invalidParameter,
  LANGUAGE_NAMES,
  MARKET_CODES,
  orderNeedsSet,
  parseGradingCompany,
  parseLanguage,
  parseRegion,
  parseSearchText,
  PLANS,
  Region,
  selectIdentifier,
  unboundedOrder,
  VariantFilter,
} from '@tcg/domain';
import {
  choice,
  integer,
  list,
  Param,
  ParsedBy,
  QUERY_LIMITS,
  readPrice,
  requestSchema,
  text,
  textValue,
} from '@tcg/http-service';
import {
  ALL_PERIOD_WINDOWS,
  DEFAULT_HISTORY_SECONDS,
  HISTORY_DURATIONS,
  HistoryDuration,
  PERIOD_WINDOWS,
  PeriodWindow,
  V2Include,
} from '@tcg/rendering';
import {
  CONVERTIBLE_CURRENCIES,
  ConvertibleCurrency,
  parseConvertibleCurrency,
} from '../currency/currencies';
import { MAX_CURSOR_LENGTH } from '../cursor/cursor-codec';

/** v2's history windows: v1's durations under v2's name. */
const HISTORY_WINDOWS = HISTORY_DURATIONS;
type HistoryWindow = HistoryDuration;
/** `include` values: a whole component or one of its windows (docs/spec/interface.md "Include"). */
export const INCLUDE_VALUES = [
  'periods',
  ...PERIOD_WINDOWS.map((w) => `periods.${w}`),
  'price_history',
  ...Object.keys(HISTORY_WINDOWS).map((w) => `price_history.${w}`),
];
export const ORDER_BY_VALUES = ['price', '24h', '7d', '30d'] as const;
/** Characters of `q` (one cap for both versions, see QUERY_LIMITS). */
export const MAX_SEARCH_LENGTH = QUERY_LIMITS.search;
export const GRADED_VALUES = ['exclude', 'only', 'include'] as const;

const maxLimits = Object.entries(PLANS)
  .map(([plan, limits]) => `${limits.maxLimit} ${plan}`)
  .join(', ');

/** A default the service settles after reading other parameters (`graded` with `grading_company`). */
const documentedDefault = <T>(param: Param<T>, value: string): Param<T> => ({
  ...param,
  doc: { ...param.doc, schema: { ...param.doc.schema, default: value } },
});

/** A grade: 1 to 10 in halves, or `Authentic` (graded as authentic, no number: null). */
function parseGrade(text: string): number | null | undefined {
  if (text.toLowerCase() === 'authentic') return null;
  const n = Number(text);
  return /^\d+(\.\d+)?$/.test(text) && n >= 1 && n <= 10 && (n * 2) % 1 === 0 ? n : undefined;
}

/** What shapes each card, on both routes: regions, graded scope, include, language. */
const SHAPE = {
  regions: list<Region>({
    item: parseRegion,
    ordered: true,
    accepted: `market codes ${MARKET_CODES.join(', ')} or an ISO 3166-1 alpha-2 country code`,
    default: ['NA'],
    description: `Region codes in priority order, not case-sensitive: market codes (${MARKET_CODES.join(', ')}) or ISO 3166-1 alpha-2 country codes. The first is the primary market (\`markets[0]\`), the one \`min_price\` and \`order_by\` read. Each region beyond the first costs one more request.`,
    example: 'NA,EU',
  }),
  graded: documentedDefault(
    choice(GRADED_VALUES, {
      ignoreCase: true,
      description:
        'Raw variants only (`exclude`), graded only (`only`) or both (`include`, one more request). `grading_company` alone implies `only`.',
    }),
    'exclude',
  ),
  grading_company: text({
    schema: { type: 'string', enum: [...GRADING_COMPANIES] },
    parse: (company, name) => parseGradingCompany(company) ?? fail(name, company, GRADING_COMPANIES),
    description:
      'Every grade of this company; sets `graded=only` unless `graded=include` is passed; a 400 with `graded=exclude`.',
  }),
  grade: list<number | null>({
    item: parseGrade,
    accepted: 'numbers from 1 to 10 in steps of 0.5, or Authentic',
    description:
      'Grades within `grading_company` (required with it): numbers from 1 to 10 in steps of 0.5, or `Authentic`.',
    example: '10,9.5',
  }),
  include: list({
    item: (item) => {
      const value = item.toLowerCase();
      return INCLUDE_VALUES.includes(value) ? value : undefined;
    },
    accepted: INCLUDE_VALUES,
    enum: INCLUDE_VALUES,
    default: ['periods', 'price_history.7d'],
    // `include=` asks for prices only, not for the default.
    blank: 'empty',
    description:
      'Components to expand per market; replaces the default (every period and `price_history.7d`), not adds to it. `include=` (empty) sends prices only. Several history windows give the longest.',
    example: 'periods.30d,price_history.30d',
  }),
  language: list({
    item: parseLanguage,
    accepted: LANGUAGE_NAMES,
    enum: LANGUAGE_NAMES,
    description:
      "Languages, case-insensitive. Narrows each card's `variants`, never removes cards (`meta`, `X-Total-Count` and cursors are unchanged); variants with no recorded language count as English; ignored with `variant_id`.",
    example: 'English,Japanese',
  }),
  currency: text({
    schema: { type: 'string', enum: [...CONVERTIBLE_CURRENCIES] },
    parse: (code, name) =>
      parseConvertibleCurrency(code) ??
      fail(
        name,
        code,
        `the euro or a currency the ECB publishes a rate for: ${CONVERTIBLE_CURRENCIES.join(', ')}`,
      ),
    description:
      "Also show each market's price in this currency (ISO 4217, case-insensitive): a `conversion` object beside the native `price` and `currency`, converted with the ECB's euro reference rate of the market's own observation day (the latest published on or before it, at most 7 days back), with the rate, its date and its source; each `price_history` point with its own day's rate. Native prices, `min_price` and `order_by` are unchanged. See docs/currencies.md.",
    example: 'EUR',
  }),
} as const;

/**
 * GET /v2/cards (docs/spec/interface.md): every parameter checked, unknown ones a 400
 * (docs/spec/decisions.md: v2 is strict), values normalised.
 */
export const CARDS_V2_QUERY = requestSchema(
  {
    card_id: text({ description: 'Card UUID or legacy v1 slug: look up one card.' }),
    variant_id: text({
      description:
        'Variant UUID or legacy v1 slug: look up one variant, whatever `graded` says; the fastest lookup.',
    }),
    vendor_id: text({ description: 'Marketplace product ID (v1 `vendorId`): look up one card.' }),
    vendor_sku: text({
      description: 'Marketplace SKU ID (v1 `vendorSkuId`): look up one variant, whatever `graded` says.',
    }),
    regions: SHAPE.regions,
    graded: SHAPE.graded,
    grading_company: SHAPE.grading_company,
    grade: SHAPE.grade,
    include: SHAPE.include,
    cursor: text({
      maxLength: MAX_CURSOR_LENGTH,
      description:
        "Opaque cursor from `meta.cursor` or the `Link` header; bound to the query's filters, order and regions (`limit` and `include` may change).",
    }),
    limit: integer({
      minimum: 1,
      default: 20,
      description: `Cards per page; a value above the plan's maximum (${maxLimits}) is clamped to it.`,
    }),
    q: text({
      maxLength: MAX_SEARCH_LENGTH,
      schema: { type: 'string', minLength: 3, maxLength: MAX_SEARCH_LENGTH },
      parse: parseSearchText,
      description: 'Free-text search on card name: at least 3 letters or digits in a row.',
      example: 'lightning bolt',
    }),
    game: text({
      description: 'Game ID or, case-insensitively, its display name.',
      example: 'magic-the-gathering',
    }),
    set: text({ description: 'Set ID.', example: 'magic-the-gathering-limited-edition-alpha' }),
    number: text({ description: 'Card number within its set.' }),
    language: SHAPE.language,
    currency: SHAPE.currency,
    // Read as text: its currency is the primary market's, known once `regions` is.
    min_price: text({
      schema: { type: 'number', minimum: 0 },
      parse: (price) => price,
      description:
        "Only cards priced at or above this, in the primary market's currency. With `grading_company` or `grade` only within a `set` (else 400).",
      example: 10,
    }),
    order_by: choice(ORDER_BY_VALUES, {
      ignoreCase: true,
      description:
        "Sort descending by the price or the change over a window of each card's highest-priced returned variant in the primary market (unpriced cards last, ties by card UUID). Without it a search orders by relevance and a browse by set, then card number. With `grading_company` or `grade` only within a `set` (else 400).",
    }),
  },
  { unknown: 'reject' },
);

/** The parameters that shape each card, which GET /v2/cards/{id} reads alone. */
export const SHAPE_PARAMETERS = Object.keys(SHAPE) as (keyof typeof SHAPE)[];

/** docs/spec/interface.md "GET /v2/cards" parameters. */
export const CARDS_PARAMETERS = CARDS_V2_QUERY.names;

export type CardsV2Params = ParsedBy<typeof CARDS_V2_QUERY>;
/** What both routes read alike, parsed. */
export type CardShapeParams = Pick<CardsV2Params, keyof typeof SHAPE>;

/** What each market of each variant carries besides its price: the card views' terms. */
export type Include = V2Include;

export interface CardsV2Query {
  readonly selector: CardSelector;
  /** Game id or display name, resolved by the service. */
  readonly game?: string;
  /** In request order, without repeats; the first is the primary market. */
  readonly regions: readonly Region[];
  readonly filter: VariantFilter;
  readonly include: Include;
  readonly cursor?: string;
  readonly limit: number;
  /** Minor units of the primary market's currency. */
  readonly minPrice?: number;
  /** Each market's price also shown in this currency (`conversion`); none: native prices only. */
  readonly currency?: ConvertibleCurrency;
  readonly orderBy?: (typeof ORDER_BY_VALUES)[number];
  /**
   * The query with everything that decides which cards come in which order, normalised; a cursor
   * is bound to it. `limit`, `include` and `language` may change between pages without breaking a
   * walk.
   */
  readonly fingerprint: string;
}

/** v2's parameter for each identifier it accepts (it has none for the OpenSet and image ids). */
const V2_IDENTIFIER_PARAMETERS: Partial<Record<CardIdentifier, keyof CardsV2Params>> = {
  variantId: 'variant_id',
  vendorSkuId: 'vendor_sku',
  cardId: 'card_id',
  vendorId: 'vendor_id',
};

/** GET /v2/cards: the query string, validated, as the read side's terms. */
export function parseCardsV2Query(raw: Record<string, unknown>, maxLimit: number): CardsV2Query {
  return toCardsV2Query(CARDS_V2_QUERY.parse(raw), raw, maxLimit);
}

/** The validated parameters as the read side's terms; `maxLimit` is the caller's plan's. */
export function toCardsV2Query(
  params: CardsV2Params,
  raw: Record<string, unknown>,
  maxLimit: number,
): CardsV2Query {
  const identifier = selectIdentifier((by) => {
    const name = V2_IDENTIFIER_PARAMETERS[by];
    return name === undefined ? undefined : (params[name] as string | undefined);
  });
  const selector: CardSelector = identifier ?? {
    by: 'browse',
    setId: params.set,
    number: params.number,
    q: params.q,
  };
  const shape = toCardShape(params, raw);
  const primary = shape.regions[0]!;
  const minPrice =
    params.min_price === undefined
      ? undefined
      : readPrice(params.min_price, 'min_price', primary.currency, "the primary market's currency");
  const game = selector.by === 'browse' ? params.game : undefined;
  const unbounded = unboundedOrder(selector, shape.filter, { by: params.order_by, minPrice });
  if (unbounded)
    throw orderNeedsSet(unbounded === 'order' ? 'order_by' : 'min_price', 'grading_company or grade', 'set');
  const query = {
    selector,
    game,
    regions: shape.regions,
    filter: shape.filter,
    include: shape.include,
    cursor: params.cursor,
    limit: Math.min(params.limit, maxLimit),
    minPrice,
    orderBy: params.order_by,
    ...(shape.currency && { currency: shape.currency }),
  };
  // Language narrows variants only: a cursor is the same with or without it (docs/spec/interface.md).
  const { languages: _languages, ...cardFilter } = query.filter;
  const fingerprint = JSON.stringify([
    selector,
    game?.toLowerCase() ?? null,
    query.regions.map((r) => r.code),
    cardFilter,
    minPrice ?? null,
    query.orderBy ?? null,
  ]);
  return { ...query, fingerprint };
}

/** Regions, graded scope, include and language: what both routes read alike. */
export function toCardShape(
  params: CardShapeParams,
  raw: Record<string, unknown>,
): Pick<CardsV2Query, 'regions' | 'filter' | 'include' | 'currency'> {
  const regions: Region[] = [];
  for (const region of params.regions ?? [])
    if (!regions.some((r) => r.code === region.code)) regions.push(region);
  if (regions.length === 0) regions.push(parseRegion('NA')!);

  const company = params.grading_company;
  if (company && params.graded === 'exclude')
    fail(
      'grading_company',
      company,
      'graded=only or graded=include with a grading company (graded=exclude returns raw cards only)',
    );
  const grades = params.grade;
  if (grades && !company)
    fail(
      'grade',
      textValue(raw['grade'], 'grade')!,
      'grades within a grading_company; pass grading_company too',
    );
  // A company narrows to graded cards unless both kinds were asked for (docs/spec/interface.md).
  const graded = company ? (params.graded === 'include' ? 'include' : 'only') : (params.graded ?? 'exclude');

  return {
    regions,
    filter: {
      includeNullPrices: true,
      graded,
      gradingCompany: company,
      grades: grades && [...new Set(grades)],
      languages: params.language,
    },
    include: toInclude(params.include),
    // Absent rather than undefined: without it the parsed query, the cache key, is as it was.
    ...(params.currency && { currency: params.currency }),
  };
}

/** Every period and `price_history.7d`: what a request without `include` gets. */
const DEFAULT_INCLUDE: Include = {
  periods: ALL_PERIOD_WINDOWS,
  withPeriods: true,
  historySeconds: DEFAULT_HISTORY_SECONDS,
};

/** `include` replaces the default (all periods plus `price_history.7d`); docs/spec/decisions.md. */
function toInclude(items: readonly string[] | undefined): Include {
  if (items === undefined) return DEFAULT_INCLUDE;
  const periods = new Set<PeriodWindow>();
  let withPeriods = false;
  let historySeconds: number | undefined;
  for (const value of items) {
    const [component, window] = value.split('.');
    if (component === 'periods') {
      withPeriods = true;
      for (const w of window ? [window as PeriodWindow] : PERIOD_WINDOWS) periods.add(w);
    } else {
      // Several history windows: the longest covers the others.
      historySeconds = Math.max(historySeconds ?? 0, HISTORY_WINDOWS[(window ?? '7d') as HistoryWindow]);
    }
  }
  return { periods, withPeriods, historySeconds };
}

function fail(name: string, value: string, accepted: readonly string[] | string): never {
  throw invalidParameter(name, value, accepted);
}
