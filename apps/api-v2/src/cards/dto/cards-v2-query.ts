import {
  abbreviate,
  CardIdentifier,
  CardSelector,
  GradingCompany,
  GRADING_COMPANIES,
  invalidParameter,
  Language,
  LANGUAGE_NAMES,
  MARKET_CODES,
  minorUnitsPerMajor,
  parseDecimalAmount,
  parseGradingCompany,
  parseLanguage,
  parseRegion,
  queryList,
  queryValue,
  Region,
  QUERY_LIMITS,
  selectIdentifier,
  VariantFilter,
} from '@tcg/domain';
import {
  ALL_PERIOD_WINDOWS,
  DEFAULT_HISTORY_SECONDS,
  HISTORY_DURATIONS,
  HistoryDuration,
  PERIOD_WINDOWS,
  PeriodWindow,
} from '@tcg/rendering';
import { MAX_CURSOR_LENGTH } from '../cursor/cursor-codec';

/** docs/spec/interface.md "GET /v2/cards" parameters; anything else is a 400 (docs/spec/decisions.md: v2 is strict). */
export const CARDS_PARAMETERS = [
  'card_id',
  'variant_id',
  'vendor_id',
  'vendor_sku',
  'regions',
  'graded',
  'grading_company',
  'grade',
  'include',
  'cursor',
  'limit',
  'q',
  'game',
  'set',
  'number',
  'language',
  'min_price',
  'order_by',
] as const;
/** docs/spec/interface.md "GET /v2/cards/{id}" query parameters. */
export const CARD_PARAMETERS = [
  'regions',
  'graded',
  'grading_company',
  'grade',
  'include',
  'language',
] as const;

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

/** What each market of each variant carries besides its price (docs/spec/interface.md "Include"). */
export interface Include {
  readonly periods: ReadonlySet<PeriodWindow>;
  /** Whether `periods` is sent at all (it may be asked for with no window in it: never). */
  readonly withPeriods: boolean;
  /** Seconds of history back from the latest observation; undefined: no `price_history`. */
  readonly historySeconds?: number;
}

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
  readonly orderBy?: (typeof ORDER_BY_VALUES)[number];
  /**
   * The query with everything that decides which cards come in which order, normalised; a cursor
   * is bound to it. `limit`, `include` and `language` may change between pages without breaking a
   * walk.
   */
  readonly fingerprint: string;
}

type Raw = Record<string, unknown>;

function rejectUnknown(raw: Raw, accepted: readonly string[]): void {
  for (const name of Object.keys(raw)) {
    if (!accepted.includes(name))
      throw invalidParameter(
        abbreviate(name),
        abbreviate(String(raw[name])),
        `no such parameter; the parameters are ${accepted.join(', ')}`,
      );
  }
}

/** v2's parameter for each identifier it accepts (it has none for the OpenSet and image ids). */
const V2_IDENTIFIER_PARAMETERS: Partial<Record<CardIdentifier, string>> = {
  variantId: 'variant_id',
  vendorSkuId: 'vendor_sku',
  cardId: 'card_id',
  vendorId: 'vendor_id',
};

/** GET /v2/cards: every parameter checked, unknown ones refused, values normalised. */
export function parseCardsV2Query(raw: Raw, maxLimit: number): CardsV2Query {
  rejectUnknown(raw, CARDS_PARAMETERS);
  const identifier = selectIdentifier((by) => {
    const name = V2_IDENTIFIER_PARAMETERS[by];
    return name === undefined ? undefined : queryValue(raw, name);
  });
  const selector: CardSelector = identifier ?? {
    by: 'browse',
    setId: queryValue(raw, 'set'),
    number: queryValue(raw, 'number'),
    q: queryValue(raw, 'q', { maxLength: MAX_SEARCH_LENGTH }),
  };
  const common = parseCommon(raw);
  const primary = common.regions[0]!;
  const min = queryValue(raw, 'min_price');
  const minPrice =
    min === undefined ? undefined : parseDecimalAmount(min, minorUnitsPerMajor(primary.currency));
  if (min !== undefined && minPrice === undefined)
    throw invalidParameter(
      'min_price',
      min,
      `a non-negative price in ${primary.currency} (the primary market's currency)`,
    );
  const orderBy = queryValue(raw, 'order_by')?.toLowerCase();
  if (orderBy !== undefined && !(ORDER_BY_VALUES as readonly string[]).includes(orderBy))
    throw invalidParameter('order_by', orderBy, ORDER_BY_VALUES);
  const limitText = queryValue(raw, 'limit');
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || Number(limitText) < 1))
    throw invalidParameter(
      'limit',
      limitText,
      `an integer from 1 (at most ${maxLimit} on your plan; larger values are clamped)`,
    );
  const game = selector.by === 'browse' ? queryValue(raw, 'game') : undefined;
  const query = {
    selector,
    game,
    regions: common.regions,
    filter: common.filter,
    include: common.include,
    cursor: queryValue(raw, 'cursor', { maxLength: MAX_CURSOR_LENGTH }),
    limit: Math.min(limitText === undefined ? 20 : Number(limitText), maxLimit),
    minPrice,
    orderBy: orderBy as CardsV2Query['orderBy'],
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

/** GET /v2/cards/{id}: the parameters that shape one card. */
export function parseCardV2Query(raw: Raw): Pick<CardsV2Query, 'regions' | 'filter' | 'include'> {
  rejectUnknown(raw, CARD_PARAMETERS);
  return parseCommon(raw);
}

function parseCommon(raw: Raw): Pick<CardsV2Query, 'regions' | 'filter' | 'include'> {
  const regions: Region[] = [];
  for (const code of queryList(raw, 'regions') ?? ['NA']) {
    const region = parseRegion(code);
    if (!region)
      throw invalidParameter(
        'regions',
        code,
        `market codes ${MARKET_CODES.join(', ')} or an ISO 3166-1 alpha-2 country code`,
      );
    if (!regions.some((r) => r.code === region.code)) regions.push(region);
  }
  if (regions.length === 0) regions.push(parseRegion('NA')!);

  const gradedText = queryValue(raw, 'graded')?.toLowerCase();
  if (gradedText !== undefined && !(GRADED_VALUES as readonly string[]).includes(gradedText))
    throw invalidParameter('graded', gradedText, GRADED_VALUES);
  const companyText = queryValue(raw, 'grading_company');
  const company = companyText === undefined ? undefined : parseGradingCompany(companyText);
  if (companyText !== undefined && company === undefined)
    throw invalidParameter('grading_company', companyText, GRADING_COMPANIES);
  if (company && gradedText === 'exclude')
    throw invalidParameter(
      'grading_company',
      companyText!,
      'graded=only or graded=include with a grading company (graded=exclude returns raw cards only)',
    );
  const grades = queryList(raw, 'grade')?.map(parseGrade);
  if (grades && !company)
    throw invalidParameter(
      'grade',
      queryValue(raw, 'grade')!,
      'grades within a grading_company; pass grading_company too',
    );
  // A company narrows to graded cards unless both kinds were asked for (docs/spec/interface.md).
  const graded = company
    ? gradedText === 'include'
      ? 'include'
      : 'only'
    : ((gradedText ?? 'exclude') as (typeof GRADED_VALUES)[number]);

  const languages = queryList(raw, 'language')?.map(
    (l) => parseLanguage(l) ?? failValue('language', l, LANGUAGE_NAMES),
  ) as Language[] | undefined;

  return {
    regions,
    filter: {
      includeNullPrices: true,
      graded,
      gradingCompany: company as GradingCompany | undefined,
      grades: grades && [...new Set(grades)],
      languages,
    },
    include: parseInclude(raw),
  };
}

/** Every period and `price_history.7d`: what a request without `include` gets. */
const DEFAULT_INCLUDE: Include = {
  periods: ALL_PERIOD_WINDOWS,
  withPeriods: true,
  historySeconds: DEFAULT_HISTORY_SECONDS,
};

/** `include` replaces the default (all periods plus `price_history.7d`); docs/spec/decisions.md. */
function parseInclude(raw: Raw): Include {
  if (raw['include'] === undefined) return DEFAULT_INCLUDE;
  const periods = new Set<PeriodWindow>();
  let withPeriods = false;
  let historySeconds: number | undefined;
  for (const item of queryList(raw, 'include') ?? []) {
    const value = item.toLowerCase();
    if (!INCLUDE_VALUES.includes(value)) throw invalidParameter('include', item, INCLUDE_VALUES);
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

/** A grade: 1 to 10 in halves, or `Authentic` (graded as authentic, no number). */
function parseGrade(text: string): number | null {
  if (text.toLowerCase() === 'authentic') return null;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || n < 1 || n > 10 || (n * 2) % 1 !== 0)
    return failValue('grade', text, 'numbers from 1 to 10 in steps of 0.5, or Authentic');
  return n;
}

function failValue(name: string, value: string, accepted: readonly string[] | string): never {
  throw invalidParameter(name, value, accepted);
}
