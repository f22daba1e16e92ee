import { MinorUnits } from './money';

/** One observed price of a variant in a region: Unix seconds and integer minor units. */
export interface PriceObservation {
  readonly variantUuid: string;
  readonly region: string;
  readonly t: number;
  readonly price: MinorUnits;
}

/** A series in time order: parallel arrays of Unix seconds and minor units. */
export interface PriceSeries {
  readonly t: readonly number[];
  readonly p: readonly MinorUnits[];
}

/** A series while it is built (appended to in time order); read as a `PriceSeries` once built. */
export interface GrowingPriceSeries extends PriceSeries {
  readonly t: number[];
  readonly p: MinorUnits[];
}
