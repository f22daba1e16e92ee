import { MinorUnits } from './money';

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

/**
 * Where a series' observations come from, as each v2 market names it (`source`) and `/v1/games`
 * lists per game. A series holds one source's observations only: simulated prices are never
 * mixed with observed ones (docs/real-data.md, "Price sources").
 * - `simulated`: the sample data's generated prices;
 * - `imported`: an operator's own price file (`npm run import-prices`);
 * - `tcgplayer`: TCGplayer's market price, the primary source of NA (MTGJSON `AllPrices`);
 * - `cardmarket`: Cardmarket's trend price, the primary source of EU (MTGJSON `AllPrices`).
 */
export const PRICE_SOURCES = ['simulated', 'imported', 'tcgplayer', 'cardmarket'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];
