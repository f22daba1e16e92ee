import type {
  CardIdentifier,
  CardOrder,
  CardSelector,
  KeysetPage,
  KeysetPosition,
  KeysetQuery,
  VariantFilter,
} from './card-queries';
import type { Card, Variant } from './catalogue';
import type { PriceSeries } from './observations';

// The card reads answer with JSON text rendered at write time and with statistics: types of the
// wire formats (@tcg/rendering) and of the statistics engine (@tcg/pricing-stats), which both
// depend on the domain. Rather than drag them in, or map every row to domain copies on the hot
// path, the port takes them as type parameters; @tcg/rendering names the port with its own
// (`RenderedCardReads`), and the text stays opaque here.
//   Joined: how a variant's JSON is joined from stored text.
//   Parts:  the parts of a series' JSON rendered at write time, by name.
//   Stats:  a series' statistics.

/**
 * A variant's series in one region as a read takes it: the time of its latest observation, its
 * statistics when the read asks for them, and the parts of its JSON rendered at write time that the
 * read asks for.
 */
export type StoredSeriesOf<Parts, Stats> = Partial<Parts> & {
  /** Unix seconds of the latest observation. */
  readonly updatedAt: number;
  readonly stats?: Stats;
};

/**
 * A part or the statistics of a series that the read was asked for. Throws when they are absent:
 * the read and its use disagree, and rendering `undefined` into an answer must never happen.
 */
export function required<S extends object, K extends keyof S>(s: S, key: K): NonNullable<S[K]> {
  const value = s[key];
  if (value === undefined || value === null) throw new Error(`a series was read without its ${String(key)}`);
  return value as NonNullable<S[K]>;
}

/** What a read takes of each series besides its time (`StoredSeriesOf`). */
export interface SeriesReadOf<Parts> {
  /** The statistics object: for what the rendered parts do not hold (other windows). */
  readonly stats: boolean;
  readonly parts: readonly (keyof Parts)[];
}

export interface PricedVariantOf<Parts, Stats> {
  readonly variant: Variant;
  /** In the primary (first) region asked for; null when it has no observations there. */
  readonly primary: StoredSeriesOf<Parts, Stats> | null;
  /** In each further region asked for that has observations, by storage region. */
  readonly otherRegions?: Readonly<Record<string, StoredSeriesOf<Parts, Stats>>>;
}

export interface CardWithVariantsOf<Parts, Stats> {
  readonly card: Card;
  readonly setName: string;
  readonly gameName: string;
  readonly variants: PricedVariantOf<Parts, Stats>[];
}

/** A card with its variants' JSON texts already joined, comma-separated ('' for none). */
export interface JoinedCard {
  readonly card: Card;
  readonly setName: string;
  readonly gameName: string;
  readonly variantsJson: string;
}

export interface CardPageOf<Parts, Stats> {
  readonly total: number;
  readonly cards: CardWithVariantsOf<Parts, Stats>[];
}

/**
 * The read side of the card APIs (v1 pages by offset, lookups, batches; v2 lookups): a page of
 * cards, then either the cards with their variants' JSON joined from what was rendered at write
 * time, or, for options rendered per request, their variants with stored parts and/or statistics,
 * and price history. Regions are storage region codes. Implemented in `@tcg/persistence`
 * (`CardQueryRepository`), bound to the `CARD_READS` token.
 */
export interface CardReads<Joined, Parts, Stats> {
  /** A page of cards with their variants and series in `region` (and `otherRegions`) as `read` asks. */
  findCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder,
    read: SeriesReadOf<Parts>,
    /** Further storage regions whose series each variant carries (v2 markets). */
    otherRegions?: readonly string[],
  ): Promise<CardPageOf<Parts, Stats>>;

  /** `findCards` with each card's variants joined into JSON as `json` says. */
  findJoinedCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder,
    json: Joined,
  ): Promise<{ readonly total: number; readonly cards: JoinedCard[] }>;

  /**
   * A batch's identifiers resolved at once: for each request ordinal, the cards it names (and the
   * one variant, for a variant id or vendor SKU). Ordinals that name nothing are absent.
   */
  resolveIdentifiers(
    items: readonly { ordinal: number; by: CardIdentifier; value: string }[],
  ): Promise<{ ordinal: number; cardUuid: string; variantUuid: string | null }[]>;

  /** Cards with every raw variant and its series, in the order given. */
  cardsWithAllVariants(
    cardUuids: string[],
    region: string,
    read: SeriesReadOf<Parts>,
  ): Promise<CardWithVariantsOf<Parts, Stats>[]>;

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
    json: Joined,
    /** The one variant a variant identifier named. */
    onlyVariant?: string,
  ): Promise<JoinedCard[]>;

  /** `loadJoinedCards` for the one card a UUID or slug names; undefined when there is none. */
  findJoinedCard(
    ref: string,
    filter: VariantFilter,
    region: string,
    json: Joined,
  ): Promise<JoinedCard | undefined>;

  /**
   * Cards with the variants the filters return and their series in each region (the first is
   * primary) as `read` asks, in the order given.
   */
  loadCards(
    cardUuids: string[],
    filter: VariantFilter,
    regions: readonly string[],
    read: SeriesReadOf<Parts>,
    onlyVariant: string | undefined,
    onlySku: string | undefined,
  ): Promise<CardWithVariantsOf<Parts, Stats>[]>;
}

/**
 * v2's browse and search by keyset: pages over a total order ending in the card UUID, forward or
 * backward, never by offset. Implemented in `@tcg/persistence` (`CardKeysetRepository`), bound to
 * the `CARD_KEYSET_READS` token.
 */
export interface CardKeysetReads {
  page(query: KeysetQuery, limit: number, position?: KeysetPosition): Promise<KeysetPage>;
  /** How many cards match, or null when counting takes longer than `budgetMs`. */
  count(query: KeysetQuery, budgetMs: number): Promise<number | null>;
}
