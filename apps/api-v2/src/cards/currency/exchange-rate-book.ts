import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DataVersionSource } from '@tcg/domain';
import {
  EXCHANGE_RATES,
  RATE_SOURCE_NAMES,
  type ExchangeRateRepository,
  type RateTable,
} from '@tcg/persistence';
import { DATA_VERSION } from '@tcg/persistence/nest';
import { MAX_RATE_AGE_DAYS } from './currencies';

/** A rate found for a day: units of the currency per euro, and the day the ECB published it. */
export interface FoundRate {
  readonly rate: number;
  readonly day: string;
}

/** Why a currency has no rate for a day. */
export type MissingRate = { readonly missing: string };

/** The stored rates, looked up in memory. */
export class RateBook {
  /** Per currency, days (since 1970-01-01) ascending and their rates per euro. */
  private readonly series = new Map<string, { days: Int32Array; rates: Float64Array }>();
  readonly source: string;

  constructor(table: RateTable) {
    this.source = RATE_SOURCE_NAMES[table.source];
    for (const [currency, { days, rates }] of table.byCurrency)
      this.series.set(currency, { days: Int32Array.from(days), rates: Float64Array.from(rates, Number) });
  }

  /**
   * The latest rate of `currency` (per euro) published on or before `day` (days since 1970-01-01)
   * and at most `MAX_RATE_AGE_DAYS` before it; the euro is 1 on every day.
   */
  on(currency: string, day: number): FoundRate | MissingRate {
    if (currency === 'EUR') return { rate: 1, day: dayText(day) };
    if (this.series.size === 0)
      return { missing: 'no exchange rates are stored: the ECB feed has not been synced' };
    const s = this.series.get(currency);
    if (!s) return { missing: `the ECB publishes no rate for ${currency}` };
    // The last index whose day is <= `day`.
    let lo = 0;
    let hi = s.days.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (s.days[mid]! <= day) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0 || day - s.days[found]! > MAX_RATE_AGE_DAYS)
      return {
        missing: `no ECB rate for ${currency} on ${dayText(day)} or in the ${MAX_RATE_AGE_DAYS} days before it`,
      };
    return { rate: s.rates[found]!, day: dayText(s.days[found]!) };
  }
}

function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** How long rates checked while the data version is unknown are used before they are checked again. */
const UNKNOWN_VERSION_REUSE_MS = 10_000;

/**
 * The exchange rates in memory, for `currency=`: a conversion makes no query per market or card.
 * At each new data version (a rate written takes one, migration ExchangeRates; so does every
 * price write) the first request that asks for a currency checks the rates' stamp (the newest
 * run that wrote one: one step down an index, 3 to 11 ms) and reads them all again only when it
 * moved. Measured on the shared 2-core machine (load 11) with the full ECB history's size, 225,835
 * rates: read as one row per currency with its days and rates in arrays, 0.5 to 1.3 s plus 0.13
 * to 0.18 s to build (one row per rate took 2.2 to 6.4 s plus 1.2 to 1.9 s); about 4 MB held. Too
 * much to pay after every price import, nothing once per ECB sync. Concurrent requests share one
 * check and one read.
 */
@Injectable()
export class ExchangeRateBook {
  private readonly logger = new Logger(ExchangeRateBook.name);
  private checked: { version: number | null; at: number; book: Promise<RateBook> } | undefined;
  private held: { stamp: string | null; book: RateBook } | undefined;

  constructor(
    @Inject(EXCHANGE_RATES) private readonly rates: ExchangeRateRepository,
    @Inject(DATA_VERSION) private readonly versions: DataVersionSource,
  ) {}

  /** The rates as of the current data version. */
  current(): Promise<RateBook> {
    const version = this.versions.current();
    const checked = this.checked;
    const fresh =
      checked !== undefined &&
      (version === null
        ? checked.version === null && Date.now() - checked.at < UNKNOWN_VERSION_REUSE_MS
        : checked.version === version);
    if (fresh) return checked.book;
    const book = this.check(version);
    // A failed check is not kept: the next request checks again.
    book.catch(() => {
      if (this.checked?.book === book) this.checked = undefined;
    });
    this.checked = { version, at: Date.now(), book };
    return book;
  }

  private async check(version: number | null): Promise<RateBook> {
    const stamp = await this.rates.stamp();
    if (this.held && this.held.stamp === stamp) return this.held.book;
    const started = performance.now();
    const table = await this.rates.table('ecb');
    const book = new RateBook(table);
    this.held = { stamp, book };
    this.logger.log({
      msg: 'exchange rates read',
      version,
      stamp,
      rates: table.count,
      ms: Math.round(performance.now() - started),
    });
    return book;
  }
}
