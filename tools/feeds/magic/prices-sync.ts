import { minorUnitsPerMajor, type PriceSource } from '@tcg/domain';
import { FeedCatalogueRepository, type VariantQuote } from '@tcg/persistence';
import type { DataSource } from 'typeorm';
import { utcDayStart } from '../json-stream';
import type { FeedPrice } from '../mtgjson/all-prices';
import { writeFeedSeries, type FeedSeries } from '../feed-series';
import type { Paced } from '../feed';
import type { RunCounts } from '../run-counts';
import { rawVariant } from '../../loader/catalogue/build-catalogue';
import type { MappedPrinting } from './printings-sync';
import { printingOfFinish } from './vocabulary';

/**
 * The primary source of each region (docs/real-data.md, "Price sources"): its prices are the
 * region's series. TCGplayer's and Cardmarket's retail prices, as MTGJSON publishes them daily.
 */
const PRIMARY: readonly {
  provider: string;
  side: 'retail';
  region: string;
  currency: string;
  source: PriceSource;
}[] = [
  { provider: 'tcgplayer', side: 'retail', region: 'NA', currency: 'USD', source: 'tcgplayer' },
  { provider: 'cardmarket', side: 'retail', region: 'EU', currency: 'EUR', source: 'cardmarket' },
];
/**
 * The other providers MTGJSON publishes (its Price Formats model) whose prices are kept as quotes:
 * a name outside this list is a provider this code has not been written for, and would let a file
 * grow `variant_quotes` without bound.
 */
const QUOTE_PROVIDERS: ReadonlySet<string> = new Set([
  'tcgplayer',
  'cardmarket',
  'cardkingdom',
  'cardsphere',
  'manapool',
  'cardtrader',
]);
/** The region of another provider's quote, by its currency. */
const QUOTE_REGION: Readonly<Record<string, string>> = { USD: 'NA', EUR: 'EU' };

/** Before the first trading card game was sold: an earlier date is a broken feed's. */
const EARLIEST = Date.UTC(1993, 0, 1) / 1000;
/** A series stores minor units as 32-bit integers (21,474,836.47 in a two-decimal currency). */
const MAX_MINOR_UNITS = 2 ** 31 - 1;

/** Series written per ingest transaction. */
const SERIES_PER_WRITE = 2_000;

export interface PricesResult {
  readonly seriesWritten: number;
  readonly observationsInserted: number;
  readonly observationsUnchanged: number;
  readonly quotesWritten: number;
  readonly simulatedSeriesDropped: number;
}

/**
 * Prices from MTGJSON v5 `AllPrices` (or `AllPricesToday`): each is a Near Mint price of one
 * printing's finish in the printing's language (sealed products: `Sealed`), the only variant the
 * feed observes; no other condition or language gets a price from it. The primary source's
 * retail prices go into the region's series through the importer's ingest path (one source per
 * series); the other providers' and buylist prices are kept as quotes, latest per source. A price
 * of 0 is the provider saying it has none: it is skipped, and so is MTGO's. A card the feed prices
 * loses the sample's simulated prices. Each batch is written through `paced`.
 */
export async function syncPrices(
  ds: DataSource,
  prices: AsyncIterable<FeedPrice>,
  printings: ReadonlyMap<string, MappedPrinting>,
  counts: RunCounts,
  paced: Paced,
): Promise<PricesResult> {
  const catalogue = new FeedCatalogueRepository(ds);
  const now = Math.floor(Date.now() / 1000);
  const result = {
    seriesWritten: 0,
    observationsInserted: 0,
    observationsUnchanged: 0,
    quotesWritten: 0,
    simulatedSeriesDropped: 0,
  };
  let series = new Map<
    string,
    {
      variantUuid: string;
      cardUuid: string;
      region: string;
      source: PriceSource;
      points: Map<number, number>;
    }
  >();
  // Latest per variant, region, source and side: a 90-day file repeats each one 90 times.
  let quotes = new Map<string, VariantQuote>();
  // A file lists a printing's prices together: its variants are named once per printing.
  let variantsOf = { uuid: '', byFinish: new Map<string, string>() };

  const flush = async () => {
    const batch = [...series.values()];
    const batchQuotes = [...quotes.values()];
    series = new Map();
    quotes = new Map();
    const stored = await catalogue.existingVariants([
      ...batch.map((s) => s.variantUuid),
      ...batchQuotes.map((q) => q.variantUuid),
    ]);
    const known = batch.filter((s) => {
      if (stored.has(s.variantUuid)) return true;
      for (const _ of s.points)
        counts.miss('no variant for this finish', { variant: s.variantUuid, region: s.region });
      return false;
    });
    const written = await writeFeedSeries(ds, known.map(toFeedSeries), counts);
    result.simulatedSeriesDropped += written.simulatedSeriesDropped;
    result.seriesWritten += written.seriesRefreshed;
    result.observationsInserted += written.written;
    result.observationsUnchanged += written.unchanged;
    result.quotesWritten += await catalogue.upsertQuotes(
      batchQuotes.filter((q) => stored.has(q.variantUuid)),
    );
  };

  for await (const price of prices) {
    counts.rowsRead++;
    const printing = printings.get(price.uuid);
    const row = () => ({
      uuid: price.uuid,
      provider: price.provider,
      side: price.side,
      finish: price.finish,
      date: price.date,
    });
    if (!printing) {
      counts.miss('unknown card uuid', row(), price.uuid);
      continue;
    }
    if (price.platform !== 'paper') {
      counts.skip('not a paper price');
      continue;
    }
    if (price.price <= 0) {
      counts.miss('price of 0 (the provider has none)', row());
      continue;
    }
    if (printing.sealed && price.finish !== 'normal') {
      counts.miss('a sealed product has no foil', row());
      continue;
    }
    const printType = printing.sealed ? 'Normal' : printingOfFinish(price.finish);
    if (!printType) {
      counts.miss('unknown finish', row(), price.finish);
      continue;
    }
    if (variantsOf.uuid !== price.uuid) variantsOf = { uuid: price.uuid, byFinish: new Map() };
    let variantUuid = variantsOf.byFinish.get(printType);
    if (variantUuid === undefined) {
      variantUuid = rawVariant(
        printing.cardUuid,
        printing.cardId,
        printType,
        printing.language,
        printing.sealed ? 'Sealed' : 'Near Mint',
      ).uuid;
      variantsOf.byFinish.set(printType, variantUuid);
    }
    // The reader has checked the date: it is a day.
    const t = utcDayStart(price.date)!;
    if (!(t >= EARLIEST && t <= now)) {
      counts.miss('date outside 1993-01-01 .. today', row());
      continue;
    }
    const minor = Math.round(price.price * minorUnitsPerMajor(price.currency));
    if (!(minor <= MAX_MINOR_UNITS)) {
      counts.miss('price above what a series stores', row());
      continue;
    }
    const primary = PRIMARY.find((p) => p.provider === price.provider && p.side === price.side);
    counts.matched++;
    if (primary) {
      if (price.currency !== primary.currency) {
        counts.miss(
          'a primary price in another currency than its region',
          { ...row(), currency: price.currency },
          price.currency,
        );
        continue;
      }
      const key = `${variantUuid}|${primary.region}`;
      let s = series.get(key);
      if (!s) {
        s = {
          variantUuid,
          cardUuid: printing.cardUuid,
          region: primary.region,
          source: primary.source,
          points: new Map(),
        };
        series.set(key, s);
      }
      s.points.set(t, minor);
    } else {
      if (!QUOTE_PROVIDERS.has(price.provider)) {
        counts.miss('a provider this sync does not know', row(), price.provider);
        continue;
      }
      const region = QUOTE_REGION[price.currency];
      if (!region) {
        counts.miss(
          'a quote in a currency of no region',
          { ...row(), currency: price.currency },
          price.currency,
        );
        continue;
      }
      const key = `${variantUuid}|${region}|${price.provider}|${price.side}`;
      const had = quotes.get(key);
      if (!had || had.observedAt <= t)
        quotes.set(key, {
          variantUuid,
          region,
          source: price.provider,
          side: price.side,
          currency: price.currency,
          observedAt: t,
          price: minor,
        });
    }
    if (series.size >= SERIES_PER_WRITE || quotes.size >= 10 * SERIES_PER_WRITE) await paced(flush);
  }
  await paced(flush);
  return result;
}

function toFeedSeries(s: {
  variantUuid: string;
  cardUuid: string;
  region: string;
  source: PriceSource;
  points: Map<number, number>;
}): FeedSeries {
  const t = [...s.points.keys()].sort((a, b) => a - b);
  return {
    variantUuid: s.variantUuid,
    cardUuid: s.cardUuid,
    region: s.region,
    source: s.source,
    t,
    p: t.map((x) => s.points.get(x)!),
  };
}
