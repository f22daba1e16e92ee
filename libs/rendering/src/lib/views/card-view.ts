import {
  Card,
  CardOrder,
  CardSelector,
  IdentifierSelector,
  JoinedCard,
  required,
  Variant,
  VariantFilter,
} from '@tcg/domain';
import type { SeriesStats } from '@tcg/pricing-stats';
import type {
  CardWithVariants,
  LoadedCards,
  PricedVariant,
  RenderedCardReads,
  SeriesRead,
  StoredSeries,
  VariantsRead,
} from '../card-reads';
import type { JoinedVariantJson, StoredMember } from '../joined';
import type { Series } from '../series';
import { DEFAULT_HISTORY_SECONDS } from '../windows';

// The part of every card view that both versions share: from what a request asks each market for,
// which members are stored (joined as they are, in SQL or here) and which are rendered per request;
// from that, what the series read takes, whether the variants can be joined in SQL, which history
// to read, and the cards' JSON. The versions say only which member is which (v1-views, v2-views).

/** A member rendered per request: from the series' statistics, or from its history read for the request. */
export type RenderedMember =
  | { readonly stats: (stats: SeriesStats) => string; readonly missing: string }
  | {
      readonly history: (latest: number, series: Series | undefined) => string;
      readonly missing: string;
      /** Seconds of history read back from each variant's latest observation. */
      readonly lookback: number;
    };

export type Member = StoredMember | RenderedMember;

/**
 * One market of each variant (v1: its one NA series) as a request asks for it: `open`, the members
 * in order, `close`; a member is the text of a series' part, or `missing` where the variant has no
 * series in the market's region.
 */
export interface Market {
  /** The storage region of the series it shows. */
  readonly storageRegion: string;
  readonly open: string;
  readonly members: readonly Member[];
  readonly close: string;
}

/** What a request asks each market for: statistics windows (none: undefined) and history (seconds). */
export interface MarketAsk<W> {
  readonly windows?: ReadonlySet<W>;
  readonly historySeconds?: number;
}

/**
 * Which members of a request's markets were rendered when prices arrived: the statistics when it
 * asks for every window, the history when it asks for the default duration. One answer for the
 * joined read, the series read and the rendering, so they cannot disagree.
 */
export function storedParts<W>(
  ask: MarketAsk<W>,
  everyWindow: number,
): { readonly stats: boolean; readonly history: boolean } {
  return {
    stats: ask.windows?.size === everyWindow,
    history: ask.historySeconds === DEFAULT_HISTORY_SECONDS,
  };
}

/** Whether every member is stored text: a market that can be joined in SQL. */
export function allStored(members: readonly Member[]): members is readonly StoredMember[] {
  return members.every((m) => 'text' in m || 'part' in m);
}

/** How a version writes a variant around its markets and a card around its variants. */
export interface CardFormat {
  /** Which stored head a variant joined in SQL starts with (`v1_head`, `v2_head`): `variantHead`'s text. */
  readonly head: JoinedVariantJson['head'];
  variantHead(v: Variant): string;
  readonly variantClose: string;
  card(
    c: { readonly card: Card; readonly setName: string; readonly gameName: string },
    variants: string[],
  ): string;
}

/** A market whose every member is stored, as a variant joined in SQL (one market) writes it. */
export function joinedOf(format: CardFormat, market: Market): JoinedVariantJson {
  if (!allStored(market.members)) throw new Error('a member rendered per request cannot be joined in SQL');
  return {
    head: format.head,
    open: market.open,
    members: market.members,
    close: `${market.close}${format.variantClose}`,
  };
}

/**
 * Where `madeOf` names the summaries (`card_values`, `card_tops`): the nil UUID, which no card
 * has. Their refresh logs it in the change log as if it were a card, so a response cache drops
 * the answers that read them and keeps the others.
 */
export const SUMMARIES_DEPENDENCY = '00000000-0000-0000-0000-000000000000';

/** Cards as a view writes them. */
export interface WrittenCards {
  readonly cards: string[];
  /**
   * The UUIDs of the cards the answer is made of, when it is made of their stored rows alone: a
   * card named by UUID or slug (unique), found, read joined (its set's and game's names, its
   * variants, their stored prices and documents; no series, no history), and
   * SUMMARIES_DEPENDENCY when the read also asked the summaries. An answer that names no such
   * card, or reads more, leaves it out: it may depend on any row.
   */
  readonly madeOf?: readonly string[];
}

function madeOf(selector: CardSelector, found: LoadedCards): readonly string[] | undefined {
  if (selector.by !== 'cardId' || found.kind !== 'joined' || found.cards.length === 0) return undefined;
  return found.cards.map((c) => c.card.uuid);
}

/** Reads variants' observations in a region after their own instants: the port's `priceHistory`. */
export type HistoryReads = Pick<RenderedCardReads, 'priceHistory'>;

/**
 * A request's cards as one version writes them. The view decides once how its reads bring the
 * variants (`variants`): joined in SQL when the request asks for one market whose every member is
 * stored, else with their series, rendered here. Each question is one read of the port with that
 * decision, then the cards' JSON (`write`).
 */
export class CardView {
  /** How the variants are joined in SQL; undefined: read with their series and rendered here. */
  readonly joined: JoinedVariantJson | undefined;
  /** What the series read takes of each series: the stored parts the members use, statistics if any renders from them. */
  readonly read: SeriesRead;
  /** The storage regions to read, primary first, each once (`US` and `NA` are one). */
  readonly regions: readonly string[];
  /** How every card read of this view brings the variants. */
  readonly variants: VariantsRead;
  /** The variants with their series in the view's regions: `variants` when not every member is stored. */
  readonly withSeries: VariantsRead;
  private readonly lookback: number | undefined;

  constructor(
    private readonly format: CardFormat,
    private readonly markets: readonly Market[],
    /** The version's joined form of the one market (built once per form: persistence compares it by identity). */
    joined: () => JoinedVariantJson,
  ) {
    const members = markets[0]!.members;
    this.joined = markets.length === 1 && allStored(members) ? joined() : undefined;
    this.read = {
      stats: members.some((m) => 'stats' in m),
      parts: members.flatMap((m) => ('part' in m ? [m.part] : [])),
    };
    this.regions = [...new Set(markets.map((m) => m.storageRegion))];
    this.lookback = members.flatMap((m) => ('history' in m ? [m.lookback] : []))[0];
    this.withSeries = { kind: 'series', read: this.read, regions: this.regions };
    this.variants = this.joined
      ? { kind: 'joined', json: this.joined, region: this.region }
      : this.withSeries;
  }

  /** The primary storage region. */
  get region(): string {
    return this.regions[0]!;
  }

  /** A page of cards and its total, as the view writes them, and what it is made of (`WrittenCards`). */
  async search(
    reads: RenderedCardReads,
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    order: CardOrder,
  ): Promise<WrittenCards & { total: number }> {
    const { total, found } = await reads.findCards(selector, filter, page, order, this.variants);
    // A page's statement asks the summaries which cards have a priced variant (card_values).
    const cards = madeOf(selector, found);
    return {
      total,
      cards: await this.write(found, reads),
      madeOf: cards && [...cards, SUMMARIES_DEPENDENCY],
    };
  }

  /**
   * The card an identifier names, with the variants the filters return — possibly none: a card
   * that exists is returned even when none of its variants fit. A variant id or SKU returns that
   * one variant whatever its kind: like the language rule, the graded scope does not hide it.
   */
  async byIdentifier(
    reads: RenderedCardReads,
    selector: IdentifierSelector,
    filter: VariantFilter,
  ): Promise<WrittenCards> {
    // A card by UUID or slug whose parts are stored: found and joined in one statement.
    if (selector.by === 'cardId' && this.joined) {
      const card = await reads.findJoinedCard(selector.value, filter, this.region, this.joined);
      const found: LoadedCards = { kind: 'joined', cards: card ? [card] : [] };
      return { cards: this.joinedCards(found.cards), madeOf: madeOf(selector, found) };
    }
    const [match] = await reads.resolveIdentifiers([{ ordinal: 0, ...selector }]);
    if (!match) return { cards: [] };
    const scope = match.variantUuid ? { includeNullPrices: true, graded: 'include' as const } : filter;
    return { cards: await this.load(reads, [match.cardUuid], scope, match.variantUuid ?? undefined) };
  }

  /** Cards by UUID, in the order given, with the variants `filter` returns (or the one variant). */
  async load(
    reads: RenderedCardReads,
    uuids: string[],
    filter: VariantFilter,
    onlyVariant?: string,
  ): Promise<string[]> {
    return this.write(await reads.loadCards(uuids, filter, this.variants, onlyVariant), reads);
  }

  /** The cards' JSON from either read: joined ones as they are, the others rendered. */
  write(loaded: LoadedCards, reads: HistoryReads): Promise<string[]> {
    return loaded.kind === 'joined'
      ? Promise.resolve(this.joinedCards(loaded.cards))
      : this.render(loaded.cards, reads);
  }

  /** Cards whose variants were joined in SQL as `joined` says. */
  joinedCards(cards: readonly JoinedCard[]): string[] {
    return cards.map((c) => this.format.card(c, [c.variantsJson]));
  }

  /**
   * Cards read with their variants' series as `read` says: stored members as they are, others
   * rendered from the statistics, and from one history read per region where a variant has
   * observations (none when the stored members hold the history).
   */
  async render(cards: readonly CardWithVariants[], reads: HistoryReads): Promise<string[]> {
    const history = new Map<string, ReadonlyMap<string, Series>>();
    if (this.lookback !== undefined) {
      for (const region of this.regions) {
        // Each variant observed in this region, back from its own latest observation there.
        const since = new Map<string, number>();
        for (const c of cards)
          for (const v of c.variants) {
            const latest = this.seriesIn(v, region)?.updatedAt;
            if (latest !== undefined) since.set(v.variant.uuid, latest - this.lookback);
          }
        if (since.size > 0) history.set(region, await reads.priceHistory(since, region));
      }
    }
    return cards.map((c) =>
      this.format.card(
        c,
        c.variants.map((v) => this.variant(v, history)),
      ),
    );
  }

  /**
   * One variant: its head, then each market. A region without observations gets each member's
   * `missing` text — never another region's figures (docs/spec/interface.md Regions rule 4).
   */
  private variant(pv: PricedVariant, history: ReadonlyMap<string, ReadonlyMap<string, Series>>): string {
    const markets = this.markets.map((m) => {
      const s = this.seriesIn(pv, m.storageRegion);
      const members = m.members.map((member) =>
        'text' in member
          ? member.text
          : s === null
            ? member.missing
            : 'part' in member
              ? required(s, member.part)
              : 'stats' in member
                ? member.stats(required(s, 'stats'))
                : member.history(s.updatedAt, history.get(m.storageRegion)?.get(pv.variant.uuid)),
      );
      return `${m.open}${members.join(',')}${m.close}`;
    });
    return `${this.format.variantHead(pv.variant)}${markets.join(',')}${this.format.variantClose}`;
  }

  private seriesIn(pv: PricedVariant, region: string): StoredSeries | null {
    return (region === this.region ? pv.primary : pv.otherRegions?.[region]) ?? null;
  }
}
