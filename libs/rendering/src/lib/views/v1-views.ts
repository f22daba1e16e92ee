import { Condition } from '@tcg/domain';
import type { CardWithVariants, LoadedCards, VariantsRead } from '../card-reads';
import type { JoinedVariantJson, StoredMember } from '../joined';
import { V1_REGION } from '../rendered-series';
import { listJson } from '../series';
import {
  ALL_STATISTIC_WINDOWS,
  V1_NO_HISTORY,
  v1CardJson,
  v1HistoryMembers,
  v1StatsMembers,
  v1VariantHead,
} from '../v1';
import {
  DEFAULT_HISTORY_SECONDS,
  HISTORY_DURATIONS,
  HistoryDuration,
  historyLookbackSeconds,
  STATISTIC_WINDOWS,
  StatisticWindow,
} from '../windows';
import { CardFormat, CardView, joinedOf, Market, storedParts } from './card-view';

/** How a v1 request presents its cards (`include_statistics`, `include_price_history`, `priceHistoryDuration`). */
export interface V1Presentation {
  readonly statistics: ReadonlySet<StatisticWindow>;
  readonly includeHistory: boolean;
  readonly historyDuration: HistoryDuration;
}

const V1: CardFormat = {
  head: 'v1',
  variantHead: v1VariantHead,
  variantClose: '}',
  card: (c, variants) => v1CardJson(c.card, c.setName, variants),
};

/** What a variant without observations shows: every window empty, and no points in its history. */
const UNPRICED_STATS = v1StatsMembers(null, ALL_STATISTIC_WINDOWS);
const NO_POINTS = v1HistoryMembers(undefined, undefined, DEFAULT_HISTORY_SECONDS);

const STORED_STATS: StoredMember = { part: 'v1Stats', missing: UNPRICED_STATS };
const STORED_HISTORY: StoredMember = { part: 'v1History', missing: NO_POINTS };
const NO_HISTORY: StoredMember = { text: V1_NO_HISTORY };

/**
 * v1's one market: the variant's NA statistics members (every field; windows not asked for null),
 * then its history members (`null` lists without history).
 */
function v1Market(p: V1Presentation): Market {
  const seconds = p.includeHistory ? HISTORY_DURATIONS[p.historyDuration] : undefined;
  const stored = storedParts({ windows: p.statistics, historySeconds: seconds }, STATISTIC_WINDOWS.length);
  return {
    storageRegion: V1_REGION,
    open: '',
    members: [
      stored.stats
        ? STORED_STATS
        : { stats: (s) => v1StatsMembers(s, p.statistics), missing: UNPRICED_STATS },
      seconds === undefined
        ? NO_HISTORY
        : stored.history
          ? STORED_HISTORY
          : {
              history: (latest, series) => v1HistoryMembers(latest, series, seconds),
              missing: NO_POINTS,
              // Back over the duration and the 30 days of `priceHistory30d`.
              lookback: historyLookbackSeconds(seconds),
            },
    ],
    close: '',
  };
}

const EVERY_WINDOW = { statistics: ALL_STATISTIC_WINDOWS, historyDuration: '7d' } as const;
const V1_WITH_HISTORY = joinedOf(V1, v1Market({ ...EVERY_WINDOW, includeHistory: true }));
const V1_WITHOUT_HISTORY = joinedOf(V1, v1Market({ ...EVERY_WINDOW, includeHistory: false }));

/** A v1 variant joined in SQL with every statistics window and the default history, or no history. */
export function v1JoinedJson(withHistory: boolean): JoinedVariantJson {
  return withHistory ? V1_WITH_HISTORY : V1_WITHOUT_HISTORY;
}

class V1View extends CardView {
  constructor(p: V1Presentation) {
    super(V1, [v1Market(p)], () => v1JoinedJson(p.includeHistory));
  }
}

/** GET /v1/cards: a page of cards by offset, `{"data":[…],"meta":{total,limit,offset,hasMore}}`. */
export class V1CardsView extends V1View {
  constructor(private readonly query: V1Presentation & { readonly limit: number; readonly offset: number }) {
    super(query);
  }

  page(total: number, cards: readonly string[]): string[] {
    const { limit, offset } = this.query;
    return listJson(cards, { total, limit, offset, hasMore: offset + cards.length < total });
  }
}

export function v1CardsView(query: V1Presentation & { readonly limit: number; readonly offset: number }) {
  return new V1CardsView(query);
}

/** A batch lookup's filters (docs/spec/interface.md BatchCardRequestItem), as parsed. */
export interface BatchLookup {
  readonly printings?: readonly string[];
  readonly conditions?: readonly Condition[];
  readonly updatedAfter?: number;
}

/** A card of a batch's answer, at its first lookup: that lookup, and the one variant it named. */
export interface BatchCard {
  readonly cardUuid: string;
  readonly lookup: BatchLookup;
  readonly onlyVariant: string | null;
}

/**
 * POST /v1/cards: every lookup of the batch in request order, each card once (at its first
 * lookup, with that lookup's filters), `meta.limit` the number of lookups.
 */
export class V1BatchView extends V1View {
  constructor(
    presentation: V1Presentation,
    private readonly lookups: readonly BatchLookup[],
  ) {
    super(presentation);
  }

  /** The cards the resolved identifiers name (by request ordinal), each at its first lookup. */
  cardsOf(
    matches: readonly { ordinal: number; cardUuid: string; variantUuid: string | null }[],
  ): BatchCard[] {
    const out: BatchCard[] = [];
    const seen = new Set<string>();
    for (const m of matches) {
      if (seen.has(m.cardUuid)) continue;
      seen.add(m.cardUuid);
      out.push({ cardUuid: m.cardUuid, lookup: this.lookups[m.ordinal]!, onlyVariant: m.variantUuid });
    }
    return out;
  }

  /**
   * How the batch's cards are read: joined in SQL like a GET's when the options' members are
   * stored and every lookup takes whole cards; otherwise whole, with their series, to be narrowed
   * here (`narrow`) and rendered.
   */
  variantsFor(cards: readonly BatchCard[]): VariantsRead {
    return cards.every((c) => !c.onlyVariant && !narrows(c.lookup)) ? this.variants : this.withSeries;
  }

  /**
   * Each card read whole, narrowed to its lookup; delta sync leaves out a card none of whose
   * variants changed. Joined cards need none (`variantsFor` joins only whole cards).
   */
  narrow(cards: readonly BatchCard[], read: LoadedCards): LoadedCards {
    if (read.kind === 'joined') return read;
    const loaded = new Map(read.cards.map((c) => [c.card.uuid, c]));
    const out: CardWithVariants[] = [];
    for (const { cardUuid, lookup, onlyVariant } of cards) {
      const c = loaded.get(cardUuid)!;
      const variants = c.variants.filter(
        ({ variant: v, primary }) =>
          (!onlyVariant || v.uuid === onlyVariant) &&
          (!lookup.printings || lookup.printings.includes(v.printing.toLowerCase())) &&
          (!lookup.conditions || (v.condition !== null && lookup.conditions.includes(v.condition))) &&
          (lookup.updatedAfter === undefined || (primary?.updatedAt ?? -1) > lookup.updatedAfter),
      );
      if (lookup.updatedAfter !== undefined && variants.length === 0) continue;
      out.push({ ...c, variants });
    }
    return { kind: 'series', cards: out };
  }

  answer(cards: readonly string[]): string[] {
    return listJson(cards, { total: cards.length, limit: this.lookups.length, offset: 0, hasMore: false });
  }
}

export function v1BatchView(presentation: V1Presentation, lookups: readonly BatchLookup[]) {
  return new V1BatchView(presentation, lookups);
}

/** A lookup that narrows its card's variants. */
function narrows(l: BatchLookup): boolean {
  return l.printings !== undefined || l.conditions !== undefined || l.updatedAfter !== undefined;
}
