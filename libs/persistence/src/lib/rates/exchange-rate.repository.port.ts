/**
 * Dated reference rates per euro (`exchange_rates`): what the ECB feed writes and what v2's
 * `currency=` converts with. Beside its implementation, as the alerts' port is (a capability of
 * this lib, not of the domain's catalogue).
 */

/** Who published a rate; the words a v2 answer names it by are `RATE_SOURCE_NAMES`. */
export type RateSource = 'ecb';

export const RATE_SOURCE_NAMES: Readonly<Record<RateSource, string>> = {
  ecb: 'ECB euro foreign exchange reference rates',
};

/** One published rate: units of `currency` per one euro on `day`. */
export interface DatedRate {
  /** `YYYY-MM-DD`. */
  readonly day: string;
  /** ISO 4217 code, never EUR. */
  readonly currency: string;
  /** The decimal as published (`0.84770`); compared and stored as an exact numeric. */
  readonly rate: string;
}

/** What a write of rates did. */
export interface RatesWritten {
  /** Rates new or different from the stored ones, and written. */
  readonly written: number;
  /** Rates already stored as they are: not written. */
  readonly unchanged: number;
}

/** The stored rates of a source as a reader keeps them in memory: per currency, by day ascending. */
export interface RateTable {
  readonly source: RateSource;
  /** Days as days since 1970-01-01 (UTC), rates as their decimal text. */
  readonly byCurrency: ReadonlyMap<
    string,
    { readonly days: readonly number[]; readonly rates: readonly string[] }
  >;
  /** Rows read. */
  readonly count: number;
}

export interface ExchangeRateRepository {
  /**
   * Writes these rates of `source` (one per day and currency) as written by the run `runId`:
   * only those that are new or differ, so that writing the same file again sends no write and
   * leaves the data version as it was.
   */
  upsert(source: RateSource, runId: string | null, rates: readonly DatedRate[]): Promise<RatesWritten>;
  /** Every stored rate of `source`, per currency, days ascending. */
  table(source: RateSource): Promise<RateTable>;
  /** Changes whenever a rate is written (the newest run that wrote one); null when there are none. */
  stamp(): Promise<string | null>;
}
