import type {
  CardPageOf,
  CardReads,
  CardWithVariantsOf,
  PricedVariantOf,
  SeriesReadOf,
  StoredSeriesOf,
} from '@tcg/domain';
import type { SeriesStats } from '@tcg/pricing-stats';
import type { JoinedVariantJson } from './joined';
import type { RenderedSeries } from './rendered-series';

// The domain's card-read port in this lib's terms: variants joined as a `JoinedVariantJson` says,
// series carrying the parts `RenderedSeries` names and `@tcg/pricing-stats`' statistics. What the
// services inject (`CARD_READS`) and `@tcg/persistence` implements.

/** The card reads of rendered cards. */
export type RenderedCardReads = CardReads<JoinedVariantJson, RenderedSeries, SeriesStats>;
export type StoredSeries = StoredSeriesOf<RenderedSeries, SeriesStats>;
export type SeriesRead = SeriesReadOf<RenderedSeries>;
export type PricedVariant = PricedVariantOf<RenderedSeries, SeriesStats>;
export type CardWithVariants = CardWithVariantsOf<RenderedSeries, SeriesStats>;
export type CardPage = CardPageOf<RenderedSeries, SeriesStats>;
