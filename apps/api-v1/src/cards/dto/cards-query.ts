import {
  CardOrder,
  CardSelector,
  Condition,
  CONDITION_NAMES,
  invalidParameter,
  Language,
  LANGUAGE_NAMES,
  parseCondition,
  parseDecimalAmount,
  parseLanguage,
  queryList,
  queryValue,
  QUERY_LIMITS,
  selectIdentifier,
  VariantFilter,
} from '@tcg/domain';
import { HISTORY_DURATIONS, HistoryDuration, STATISTIC_WINDOWS, StatisticWindow } from '@tcg/rendering';
import { printType } from './printing';

export interface CardsQuery {
  /** Identifier selector (docs/spec/decisions.md precedence) or a browse/search; `game` is resolved later. */
  readonly selector: CardSelector;
  readonly game?: string;
  readonly q?: string;
  readonly filter: VariantFilter;
  readonly historyDuration: HistoryDuration;
  readonly includeHistory: boolean;
  readonly statistics: ReadonlySet<StatisticWindow>;
  readonly limit: number;
  readonly offset: number;
  readonly order: CardOrder;
}

const ORDER_BY = ['price', '24h', '7d', '30d', '90d'] as const;

/** Characters of `q` (one cap for both versions, see QUERY_LIMITS). */
export const MAX_SEARCH_LENGTH = QUERY_LIMITS.search;
/**
 * The largest `offset`: OFFSET makes PostgreSQL produce and drop every row before the page. Both
 * games of the `full` sample together hold well under this, so a whole game pages at any limit
 * with room to grow. Past a few thousand rows the planner sorts the whole game, so the cap bounds
 * a page's work by about one sort of the largest game.
 */
export const MAX_OFFSET = 100_000;

type Raw = Record<string, unknown>;

function bool(raw: Raw, name: string, fallback: boolean): boolean {
  const v = queryValue(raw, name)?.toLowerCase();
  if (v === undefined) return fallback;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw invalidParameter(name, v, ['true', 'false']);
}

function int(raw: Raw, name: string, fallback: number, min: number, max?: number): number {
  const v = queryValue(raw, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || (max !== undefined && n > max) || !Number.isSafeInteger(n)) {
    throw invalidParameter(
      name,
      v,
      max === undefined ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`,
    );
  }
  return n;
}

/**
 * Parses GET /v1/cards' query (docs/spec/interface.md table). Unknown parameters are ignored (v1 is
 * lenient); unrecognised values of known ones are a 400 naming the parameter and what it accepts.
 */
export function parseCardsQuery(raw: Raw, maxLimit: number): CardsQuery {
  // v1's identifier parameters are named as the identifiers are.
  const identifier = selectIdentifier((name) => queryValue(raw, name));
  const q = queryValue(raw, 'q', { maxLength: MAX_SEARCH_LENGTH });
  const selector: CardSelector = identifier ?? {
    by: 'browse',
    setId: queryValue(raw, 'set'),
    number: queryValue(raw, 'number'),
    q,
  };

  const conditions = queryList(raw, 'condition')?.map((c) => parseCondition(c) ?? failCondition(c));
  const languages = queryList(raw, 'language')?.map((l) => parseLanguage(l) ?? failLanguage(l));
  // A printing may carry v1's language suffix ("Normal - Japanese"); the print type is what matches.
  const printings = queryList(raw, 'printing')?.map(printType);

  const duration = queryValue(raw, 'priceHistoryDuration') ?? '7d';
  if (!(duration in HISTORY_DURATIONS))
    throw invalidParameter('priceHistoryDuration', duration, Object.keys(HISTORY_DURATIONS));
  const windows = queryList(raw, 'include_statistics') ?? [...STATISTIC_WINDOWS];
  for (const w of windows) {
    if (!(STATISTIC_WINDOWS as readonly string[]).includes(w))
      throw invalidParameter('include_statistics', w, STATISTIC_WINDOWS);
  }
  const updatedAfter =
    queryValue(raw, 'updated_after') === undefined ? undefined : int(raw, 'updated_after', 0, 0);
  const isSearch = selector.by === 'browse' && q !== undefined;

  return {
    selector,
    game: selector.by === 'browse' ? queryValue(raw, 'game') : undefined,
    q,
    filter: {
      printings,
      conditions: conditions as Condition[] | undefined,
      languages: languages as Language[] | undefined,
      updatedAfter,
      // Ignored with q (docs/spec/interface.md): a search shows cards whether priced or not.
      includeNullPrices: isSearch ? true : bool(raw, 'include_null_prices', false),
    },
    historyDuration: duration as HistoryDuration,
    includeHistory: bool(raw, 'include_price_history', true),
    statistics: new Set(windows as StatisticWindow[]),
    limit: Math.min(int(raw, 'limit', 20, 1), maxLimit),
    offset: int(raw, 'offset', 0, 0, MAX_OFFSET),
    order: parseOrder(raw),
  };
}

function failCondition(value: string): never {
  throw invalidParameter('condition', value, CONDITION_NAMES);
}

function failLanguage(value: string): never {
  throw invalidParameter('language', value, LANGUAGE_NAMES);
}

/** docs/spec/decisions.md extensions the official client sends: orderBy, order (default desc), min_price (USD). */
function parseOrder(raw: Raw): CardOrder {
  const by = queryValue(raw, 'orderBy')?.toLowerCase();
  if (by !== undefined && !(ORDER_BY as readonly string[]).includes(by))
    throw invalidParameter('orderBy', by, ORDER_BY);
  const direction = queryValue(raw, 'order')?.toLowerCase() ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc')
    throw invalidParameter('order', direction, ['asc', 'desc']);
  const min = queryValue(raw, 'min_price');
  const minPrice = min === undefined ? undefined : parseDecimalAmount(min);
  if (min !== undefined && minPrice === undefined)
    throw invalidParameter('min_price', min, 'a non-negative price in USD, at most 2 decimals');
  return { by: by as CardOrder['by'], direction, minPrice };
}
