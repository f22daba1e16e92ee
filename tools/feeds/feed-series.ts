import { FeedCatalogueRepository, PriceIngestRepository, type IngestSeries } from '@tcg/persistence';
import type { DataSource } from 'typeorm';
import type { RunCounts } from './run-counts';

/** A feed's series of one variant and region, and the card it prices. */
export type FeedSeries = IngestSeries & { readonly cardUuid: string };

export interface FeedSeriesWritten {
  /** Variant-region series whose statistics were refreshed. */
  readonly seriesRefreshed: number;
  /** Observations inserted or changed (also added to `counts.observations`). */
  readonly written: number;
  readonly unchanged: number;
  readonly simulatedSeriesDropped: number;
}

/**
 * Writes a feed's series through the importer's ingest: the cards they price first lose their
 * simulated series (a real price never sits beside a generated one), and a series holding another
 * real source's prices is refused and counted unmatched, as every feed does it.
 */
export async function writeFeedSeries(
  ds: DataSource,
  series: readonly FeedSeries[],
  counts: RunCounts,
): Promise<FeedSeriesWritten> {
  if (series.length === 0) return { seriesRefreshed: 0, written: 0, unchanged: 0, simulatedSeriesDropped: 0 };
  const simulatedSeriesDropped = await new FeedCatalogueRepository(ds).dropSimulatedPrices(
    series.map((s) => s.cardUuid),
  );
  const result = await new PriceIngestRepository(ds).ingestSeries(
    series.map(({ cardUuid: _cardUuid, ...s }) => s),
  );
  for (const r of result.refused)
    counts.miss(`the series holds ${r.storedSource} prices`, { variant: r.variantUuid, region: r.region });
  const written = result.inserted + result.updated;
  counts.observations += written;
  return {
    seriesRefreshed: result.seriesRefreshed,
    written,
    unchanged: result.unchanged,
    simulatedSeriesDropped,
  };
}
