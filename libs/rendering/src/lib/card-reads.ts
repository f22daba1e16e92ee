import type {
  Card,
  CardIdentifier,
  CardOrder,
  CardSelector,
  JoinedCard,
  PriceSeries,
  Variant,
  VariantFilter,
} from '@tcg/domain';
import type { SeriesStats } from '@tcg/pricing-stats';
import type { JoinedVariantJson } from './joined';
import type { RenderedSeries } from './rendered-series';

// The card-read port of the offset pages, lookups and batches. Its answers are this lib's text
// (variants joined as a `JoinedVariantJson` says, series carrying `RenderedSeries` parts) and
// `@tcg/pricing-stats`' statistics, which the domain cannot name (both depend on it): the port is
// written here, in those types, beside the domain's `JoinedCard` and `CardKeysetReads`. The services
// inject it (`CARD_READS`); `@tcg/persistence` implements it (`CardQueryRepository`).

/**
 * A variant's series in one region as a read takes it: the time of its latest observation, its
 * statistics when the read asks for them, and the parts of its JSON rendered at write time that the
 * read asks for.
 */
export type StoredSeries = Partial<RenderedSeries> & {
  /** Unix seconds of the latest observation. */
  readonly updatedAt: number;
  readonly stats?: SeriesStats;
};

/** What a read takes of each series besides its time (`StoredSeries`). */
export interface SeriesRead {
  /** The statistics object: for what the rendered parts do not hold (other windows). */
  readonly stats: boolean;
  readonly parts: readonly (keyof RenderedSeries)[];
}

export interface PricedVariant {
  readonly variant: Variant;
  /** In the primary (first) region asked for; null when it has no observations there. */
  readonly primary: StoredSeries | null;
  /** In each further region asked for that has observations, by storage region. */
  readonly otherRegions?: Readonly<Record<string, StoredSeries>>;
}

export interface CardWithVariants {
  readonly card: Card;
  readonly setName: string;
  readonly gameName: string;
  readonly variants: PricedVariant[];
}

export interface CardPage {
  readonly total: number;
  readonly cards: CardWithVariants[];
}

/**
 * The read side of the card APIs (v1 pages by offset, lookups, batches; v2 lookups): a page of
 * cards, then either the cards with their variants' JSON joined from what was rendered at write
 * time, or, for options rendered per request, their variants with stored parts and/or statistics,
 * and price history. Regions are storage region codes.
 */
export interface RenderedCardReads {
  /** A page of cards with their variants and series in `region` (and `otherRegions`) as `read` asks. */
  findCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder,
    read: SeriesRead,
    /** Further storage regions whose series each variant carries (v2 markets). */
    otherRegions?: readonly string[],
  ): Promise<CardPage>;

  /** `findCards` with each card's variants joined into JSON as `json` says. */
  findJoinedCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder,
    json: JoinedVariantJson,
  ): Promise<{ readonly total: number; readonly cards: JoinedCard[] }>;

  /**
   * A batch's identifiers resolved at once: for each request ordinal, the cards it names (and the
   * one variant, for a variant id or vendor SKU). Ordinals that name nothing are absent.
   */
  resolveIdentifiers(
    items: readonly { ordinal: number; by: CardIdentifier; value: string }[],
  ): Promise<{ ordinal: number; cardUuid: string; variantUuid: string | null }[]>;

  /** Cards with every raw variant and its series, in the order given. */
  cardsWithAllVariants(cardUuids: string[], region: string, read: SeriesRead): Promise<CardWithVariants[]>;

  /**
   * Each variant's observations in `region` after its own instant (exclusive; Unix seconds, by
   * variant UUID), ascending.
   */
  priceHistory(since: ReadonlyMap<string, number>, region: string): Promise<Map<string, PriceSeries>>;

  /**
   * Cards with the variants the filters return, each variant's JSON joined as `json` says with its
   * series in `region`, in the order given.
   */
  loadJoinedCards(
    cardUuids: string[],
    filter: VariantFilter,
    region: string,
    json: JoinedVariantJson,
    /** The one variant a variant identifier named. */
    onlyVariant?: string,
  ): Promise<JoinedCard[]>;

  /** `loadJoinedCards` for the one card a UUID or slug names; undefined when there is none. */
  findJoinedCard(
    ref: string,
    filter: VariantFilter,
    region: string,
    json: JoinedVariantJson,
  ): Promise<JoinedCard | undefined>;

  /**
   * Cards with the variants the filters return and their series in each region (the first is
   * primary) as `read` asks, in the order given.
   */
  loadCards(cardUuids: string[], load: CardsLoad): Promise<CardWithVariants[]>;
}

/** What `loadCards` reads of each card: its variants that `filter` (or the one variant or SKU) returns, and their series in `regions` as `read` asks. */
export interface CardsLoad {
  readonly filter: VariantFilter;
  readonly regions: readonly string[];
  readonly read: SeriesRead;
  readonly onlyVariant?: string;
  readonly onlySku?: string;
}
