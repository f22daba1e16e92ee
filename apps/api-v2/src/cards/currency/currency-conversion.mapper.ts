import { minorUnitsPerMajor, roundMoney, roundRatio, roundTo, toMajor } from '@tcg/domain';
import { type FoundRate, type MissingRate, type RateBook } from './exchange-rate-book';

/** The money statistics of a window: scaled by a rate. The others (percentages, ratios, counts, dates) have no currency. */
const MONEY_STATS = ['avg', 'min', 'max', 'stddev', 'iqr'] as const;
/** A slope in currency units per day: scaled too, and rounded as ratios are. */
const SLOPE_STAT = 'trend_slope';
/** Decimals of a shown cross rate. */
const RATE_DECIMALS = 6;

type Json = Record<string, unknown>;

/** A market as v2 renders it (docs/spec/interface.md "v2 Market"). */
interface MarketJson extends Json {
  readonly currency: string;
  readonly price: number | null;
  readonly updated_at?: number | null;
  readonly periods?: Record<string, Json>;
  readonly price_history?: { t: number; p: number }[];
}

/** A native amount's cross rate to the target on a day: target units per native unit, and the older of the two dates used. */
type Cross = { readonly rate: number; readonly day: string | null } | MissingRate;

/**
 * Adds `conversion` to every market of every card of a v2 body (`{"data":[…]}` or `{"data":{…}}`):
 * the market's price in `target`, converted with the rates of its own observation day
 * (`updated_at`'s UTC day), with the rate, its date and its source; each history point with its
 * own day's rate; the money statistics of `periods` with the rate of the market's observation day,
 * the day every window ends on (windows are anchored at the latest observation). The native
 * `price` and `currency` are kept as they are. Cross rates go through the euro
 * (`rate(target) / rate(native)`, both per euro); amounts are converted from the native minor
 * units and rounded once, by the money rules (`roundTo`, half away from zero). A rate missing on a
 * day is said (`reason`), never guessed.
 */
export function convertCardsBody(body: string, target: string, book: RateBook): string {
  const parsed = JSON.parse(body) as { data: Json | Json[] };
  const cards = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  for (const card of cards)
    for (const variant of (card['variants'] as Json[] | undefined) ?? [])
      for (const market of (variant['markets'] as MarketJson[] | undefined) ?? [])
        (market as Json)['conversion'] = convertMarket(market, target, book);
  return JSON.stringify(parsed);
}

function convertMarket(market: MarketJson, target: string, book: RateBook): Json {
  const native = market.currency;
  const same = native === target;
  const crossOn = memoised((day: number) => cross(book, native, target, day));
  const head = (c: Cross, price: number | null): Json =>
    'missing' in c
      ? { currency: target, price: null, rate: null, rate_date: null, source: null, reason: c.missing }
      : {
          currency: target,
          price,
          rate: roundTo(c.rate, RATE_DECIMALS),
          rate_date: c.day,
          source: same ? null : book.source,
        };

  if (market.price === null || market.updated_at === null || market.updated_at === undefined) {
    const out: Json = {
      currency: target,
      price: null,
      rate: null,
      rate_date: null,
      source: null,
      reason: 'the market has no price to convert',
    };
    if (market.periods !== undefined) out['periods'] = {};
    if (market.price_history !== undefined) out['price_history'] = [];
    return out;
  }
  const observed = utcDay(market.updated_at);
  const c = crossOn(observed);
  const out = head(c, 'missing' in c ? null : amount(market.price, native, target, c.rate));
  if (market.periods !== undefined) out['periods'] = 'missing' in c ? {} : periodsIn(market.periods, c.rate);
  if (market.price_history !== undefined)
    out['price_history'] = market.price_history.map(({ t, p }) => {
      const pc = crossOn(utcDay(t));
      return 'missing' in pc
        ? { t, p: null, rate: null, rate_date: null, reason: pc.missing }
        : {
            t,
            p: amount(p, native, target, pc.rate),
            rate: roundTo(pc.rate, RATE_DECIMALS),
            rate_date: pc.day,
          };
    });
  return out;
}

/** The native→target rate on `day`, through the euro; the euro itself needs no rate. */
function cross(book: RateBook, native: string, target: string, day: number): Cross {
  if (native === target) return { rate: 1, day: null };
  const from: FoundRate | MissingRate = book.on(native, day);
  if ('missing' in from) return from;
  const to: FoundRate | MissingRate = book.on(target, day);
  if ('missing' in to) return to;
  // The euro's leg is dated by the other one: the date shown is the published rate's.
  const dates = [native === 'EUR' ? null : from.day, target === 'EUR' ? null : to.day].filter(
    (d): d is string => d !== null,
  );
  return { rate: to.rate / from.rate, day: dates.sort()[0] ?? null };
}

/** A native price in the target currency: from its minor units, rounded once to the target's. */
function amount(price: number, native: string, target: string, rate: number): number {
  const fromPerMajor = minorUnitsPerMajor(native);
  const toPerMajor = minorUnitsPerMajor(target);
  // A native price is its minor units shown as a decimal: this gives them back exactly.
  const minor = Math.round(price * fromPerMajor);
  const converted = roundTo((minor * rate * toPerMajor) / fromPerMajor, 0);
  return toMajor(converted, toPerMajor);
}

/** The money statistics of each window, scaled by one rate; the currency-free ones are left out. */
function periodsIn(periods: Record<string, Json>, rate: number): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [window, stats] of Object.entries(periods)) {
    const converted: Json = {};
    for (const name of MONEY_STATS)
      if (name in stats) converted[name] = scaled(stats[name], rate, roundMoney);
    if (SLOPE_STAT in stats) converted[SLOPE_STAT] = scaled(stats[SLOPE_STAT], rate, roundRatio);
    out[window] = converted;
  }
  return out;
}

function scaled(value: unknown, rate: number, round: (v: number | null) => number | null): number | null {
  return typeof value === 'number' ? round(value * rate) : null;
}

function utcDay(seconds: number): number {
  return Math.floor(seconds / 86_400);
}

function memoised<T>(f: (day: number) => T): (day: number) => T {
  const seen = new Map<number, T>();
  return (day) => {
    let v = seen.get(day);
    if (v === undefined) seen.set(day, (v = f(day)));
    return v;
  };
}
