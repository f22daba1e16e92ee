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

/**
 * How a read brings each card's variants, decided once by the view (`CardView.variants`): joined
 * into JSON in SQL from what was rendered when prices arrived (one market whose every member is
 * stored), or with their series in `regions` (the first primary) as `read` says, rendered by the
 * view.
 */
export type VariantsRead =
  | { readonly kind: 'joined'; readonly json: JoinedVariantJson; readonly region: string }
  | { readonly kind: 'series'; readonly read: SeriesRead; readonly regions: readonly string[] };

/** Cards as a `VariantsRead` brought them, in the order asked for. */
export type LoadedCards =
  | { readonly kind: 'joined'; readonly cards: JoinedCard[] }
  | { readonly kind: 'series'; readonly cards: CardWithVariants[] };

/**
 * The read side of the card APIs (v1 pages by offset, lookups, batches; v2 lookups and pages), one
 * method per question: a page of cards, these cards, the card a reference names, what a batch's
 * identifiers name, and price history. Each card read brings the variants as the view's
 * `VariantsRead` says. Regions are storage region codes.
 */
export interface RenderedCardReads {
  /** A page of cards and its total, each card with its variants as `variants` says. */
  findCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    order: CardOrder,
    variants: VariantsRead,
  ): Promise<{ readonly total: number; readonly found: LoadedCards }>;

  /**
   * Cards with the variants the filters return (or the one variant `onlyVariant` names), as
   * `variants` says, in the order given.
   */
  loadCards(
    cardUuids: string[],
    filter: VariantFilter,
    variants: VariantsRead,
    onlyVariant?: string,
  ): Promise<LoadedCards>;

  /**
   * The one card a UUID or slug names, its variants joined as `json` says with its series in
   * `region`, found in the same statement (a lookup's one round trip); undefined when there is none.
   */
  findJoinedCard(
    ref: string,
    filter: VariantFilter,
    region: string,
    json: JoinedVariantJson,
  ): Promise<JoinedCard | undefined>;

  /**
   * A batch's identifiers resolved at once: for each request ordinal, the cards it names (and the
   * one variant, for a variant id or vendor SKU). Ordinals that name nothing are absent.
   */
  resolveIdentifiers(
    items: readonly { ordinal: number; by: CardIdentifier; value: string }[],
  ): Promise<{ ordinal: number; cardUuid: string; variantUuid: string | null }[]>;

  /**
   * Each variant's observations in `region` after its own instant (exclusive; Unix seconds, by
   * variant UUID), ascending.
   */
  priceHistory(since: ReadonlyMap<string, number>, region: string): Promise<Map<string, PriceSeries>>;
}
