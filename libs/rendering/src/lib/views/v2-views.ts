import { Region } from '@tcg/domain';
import type { JoinedVariantJson } from '../joined';
import { listJson } from '../series';
import {
  ALL_PERIOD_WINDOWS,
  v2CardJson,
  v2HistoryMember,
  v2MarketHead,
  v2PeriodsMember,
  v2PriceMembers,
  v2VariantHead,
} from '../v2';
import { DEFAULT_HISTORY_SECONDS, PERIOD_WINDOWS, PeriodWindow } from '../windows';
import { CardFormat, CardView, joinedOf, Market, Member, storedParts, type WrittenCards } from './card-view';

/** What each market of each variant carries besides its price (docs/spec/interface.md "Include"). */
export interface V2Include {
  readonly periods: ReadonlySet<PeriodWindow>;
  /** Whether `periods` is sent at all (it may be asked for with no window in it: never). */
  readonly withPeriods: boolean;
  /** Seconds of history back from the latest observation; undefined: no `price_history`. */
  readonly historySeconds?: number;
}

/** What shapes a v2 card: its markets (in request order, the first primary) and what each carries. */
export interface V2Shape {
  readonly regions: readonly Region[];
  readonly include: V2Include;
}

/** A response body's JSON text (its parts in order) plus the headers that describe it (Link, X-Total-Count). */
export interface JsonWithHeaders {
  readonly json: readonly string[];
  readonly headers: Record<string, string>;
  /** The cards the answer is made of, alone (`WrittenCards.madeOf`). */
  readonly cards?: readonly string[];
}

const V2: CardFormat = {
  head: 'v2',
  variantHead: v2VariantHead,
  variantClose: ']}',
  card: (c, variants) => v2CardJson(c.card, c.gameName, c.setName, variants),
};

/**
 * A v2 market without observations, per part and currency: rendered once per currency. Without
 * observations the periods are `{}` and the history `[]` whatever windows are asked for.
 */
function v2Unpriced(currency: string): { price: string; periods: string; history: string } {
  let parts = V2_UNPRICED.get(currency);
  if (!parts) {
    parts = {
      price: v2PriceMembers(null, currency),
      periods: v2PeriodsMember(null, currency, ALL_PERIOD_WINDOWS),
      history: v2HistoryMember(undefined, undefined, DEFAULT_HISTORY_SECONDS, currency),
    };
    V2_UNPRICED.set(currency, parts);
  }
  return parts;
}
const V2_UNPRICED = new Map<string, { price: string; periods: string; history: string }>();

/** One market of a v2 variant: its price members, then `periods` and `price_history` when asked for. */
function v2Market(region: Region, include: V2Include): Market {
  const { currency } = region;
  const seconds = include.historySeconds;
  const stored = storedParts({ windows: include.periods, historySeconds: seconds }, PERIOD_WINDOWS.length);
  const empty = v2Unpriced(currency);
  const members: Member[] = [{ part: 'v2Price', missing: empty.price }];
  if (include.withPeriods)
    members.push(
      stored.stats
        ? { part: 'v2Periods', missing: empty.periods }
        : { stats: (s) => v2PeriodsMember(s, currency, include.periods), missing: empty.periods },
    );
  if (seconds !== undefined)
    members.push(
      stored.history
        ? { part: 'v2History', missing: empty.history }
        : {
            history: (latest, series) => v2HistoryMember(latest, series, seconds, currency),
            missing: empty.history,
            lookback: seconds,
          },
    );
  return {
    storageRegion: region.storageRegion,
    open: v2MarketHead(region.code, currency),
    members,
    close: '}',
  };
}

/**
 * A v2 variant joined in SQL with one market: its price, every period window or none, the default
 * history or none. Built once per market and options: a request's is a lookup, and equal
 * specifications are one object.
 */
export function v2JoinedJson(
  regionCode: string,
  currency: string,
  withPeriods: boolean,
  withHistory: boolean,
): JoinedVariantJson {
  const key = `${regionCode}|${currency}|${withPeriods}|${withHistory}`;
  let json = V2_JOINED.get(key);
  if (json === undefined) {
    const region = { code: regionCode, currency, storageRegion: regionCode };
    const include = {
      periods: ALL_PERIOD_WINDOWS,
      withPeriods,
      historySeconds: withHistory ? DEFAULT_HISTORY_SECONDS : undefined,
    };
    json = joinedOf(V2, v2Market(region, include));
    V2_JOINED.set(key, json);
  }
  return json;
}
/** Bounded: markets and currencies are the domain's, validated before they get here. */
const V2_JOINED = new Map<string, JoinedVariantJson>();

class V2View extends CardView {
  constructor({ regions, include }: V2Shape) {
    const primary = regions[0]!;
    super(
      V2,
      regions.map((r) => v2Market(r, include)),
      () =>
        v2JoinedJson(
          primary.code,
          primary.currency,
          include.withPeriods,
          include.historySeconds !== undefined,
        ),
    );
  }
}

/** The next and previous page's cursors (null: none). */
export interface PageCursors {
  readonly next: string | null;
  readonly prev: string | null;
}

/**
 * GET /v2/cards: `{"data":[…],"meta":{count,total,limit,has_more,cursor}}`, with `X-Total-Count`
 * (when the total is known) and, on a browse, `Link` to the pages the cursors name.
 */
export class V2CardsView extends V2View {
  constructor(
    private readonly query: V2Shape & { readonly limit: number },
    /** The query string as received: the pages' links repeat it with another cursor. */
    private readonly raw: Record<string, unknown>,
  ) {
    super(query);
  }

  /** The cards an identifier names: one page, nothing before or after it. */
  lookup({ cards, madeOf }: WrittenCards): JsonWithHeaders {
    const total = cards.length;
    const meta = {
      count: total,
      total,
      limit: this.query.limit,
      has_more: false,
      cursor: { next: null, prev: null },
    };
    return { json: listJson(cards, meta), headers: { 'X-Total-Count': String(total) }, cards: madeOf };
  }

  /** A page of a browse or search; `total` null when counting took too long. */
  page(cards: readonly string[], total: number | null, cursor: PageCursors): JsonWithHeaders {
    const headers: Record<string, string> = {};
    if (total !== null) headers['X-Total-Count'] = String(total);
    const links = [
      cursor.next && `<${this.pageUrl(cursor.next)}>; rel="next"`,
      cursor.prev && `<${this.pageUrl(cursor.prev)}>; rel="prev"`,
    ].filter(Boolean);
    if (links.length > 0) headers['Link'] = links.join(', ');
    const meta = {
      count: cards.length,
      total,
      limit: this.query.limit,
      has_more: cursor.next !== null,
      cursor,
    };
    return { json: listJson(cards, meta), headers };
  }

  /** The same request with another cursor: a relative reference, valid behind any host. */
  private pageUrl(cursor: string): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(this.raw)) {
      if (name === 'cursor') continue;
      for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
    }
    params.set('cursor', cursor);
    return `/v2/cards?${params.toString()}`;
  }
}

export function v2CardsView(query: V2Shape & { readonly limit: number }, raw: Record<string, unknown>) {
  return new V2CardsView(query, raw);
}

/** GET /v2/cards/{id}: `{"data":<card>}`, no `meta`. */
export class V2CardView extends V2View {
  one(card: string): string {
    return `{"data":${card}}`;
  }
}

export function v2CardView(shape: V2Shape) {
  return new V2CardView(shape);
}
