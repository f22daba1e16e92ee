import { parseRegion, type PriceSource } from '@tcg/domain';
import { renderSeries } from '@tcg/rendering';
import { BinaryCopyRows } from '../sql/binary-copy';
import { copyLine } from '../sql/copy';
import { DOCUMENT_REGIONS } from '../documents';
import { joinChunks, MonthChunk, mergeSeries, splitIntoMonths } from '../sql/month-chunks';
import { renderedFields } from '../sql/rendered-columns';
import { statsRowOf } from './stats-row';

/** A series of one variant in one region: ascending unique Unix seconds and minor units. */
export interface IngestSeries {
  readonly variantUuid: string;
  readonly region: string;
  /**
   * Where the observations come from. A series holds one source's: a stored simulated series is
   * replaced by a real source's; a stored series of another real source is left as it is and the
   * incoming one refused (`IngestResult.refused`), so that no real history is ever lost.
   */
  readonly source: PriceSource;
  readonly t: ArrayLike<number>;
  readonly p: ArrayLike<number>;
}

/** A batch's writes, encoded for COPY: rows of series with nothing stored go straight in. */
export interface EncodedBatch {
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Month rows and statistics of series with nothing stored: COPYed into the tables. */
  readonly newSeries: BinaryCopyRows;
  readonly newStats: string[];
  /** Month rows and statistics of stored (or replaced) series: upserted through temp tables. */
  readonly series: BinaryCopyRows;
  readonly stats: string[];
  /** Variants whose series the stored documents hold. */
  readonly documentVariants: ReadonlySet<string>;
}

/** How a series stands in the database: its stored months, and whether it replaces another source's. */
export interface StoredState {
  readonly stored?: readonly MonthChunk[];
  readonly replaced: boolean;
}

const NOTHING_STORED: StoredState = { replaced: false };

/** Series encoded between two turns of the event loop, so that a batch's statements are sent on time. */
const SERIES_PER_TURN = 8;

/**
 * Merges each series into its stored months and encodes what changed: the changed months, and
 * its statistics row with the parts of its JSON a default request sends. `stateOf` gives what is
 * stored (nothing, by default). It yields to the event loop every few series, so that encoding a
 * batch ahead does not hold up the statements of the one being written.
 */
export async function encodeBatch(
  series: Iterable<readonly [key: string, series: IngestSeries]>,
  stateOf: (key: string) => StoredState = () => NOTHING_STORED,
): Promise<EncodedBatch> {
  const out = {
    inserted: 0,
    updated: 0,
    unchanged: 0,
    newSeries: new BinaryCopyRows(),
    newStats: [] as string[],
    series: new BinaryCopyRows(),
    stats: [] as string[],
    documentVariants: new Set<string>(),
  };
  let done = 0;
  for (const [key, s] of series) {
    if (++done % SERIES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const { stored, replaced } = stateOf(key);
    const { variantUuid, region } = s;
    const merged = mergeSeries(joinChunks(stored ?? []), s);
    out.inserted += merged.inserted;
    out.updated += merged.updated;
    out.unchanged += merged.unchanged;
    if (merged.changedMonths.size === 0) continue;
    // A replaced series' months are gone: its new ones are COPYed, its statistics row upserted.
    const seriesOut = stored ? out.series : out.newSeries;
    for (const chunk of splitIntoMonths(merged.t, merged.p)) {
      if (!merged.changedMonths.has(chunk.monthStart)) continue;
      seriesOut
        .row(5)
        .uuid(variantUuid)
        .text(region)
        .date(chunk.monthStart)
        .int4Array(chunk.offsets)
        .int4Array(chunk.prices);
    }
    if (DOCUMENT_REGIONS.has(region)) out.documentVariants.add(variantUuid);
    const row = statsRowOf(merged.t, merged.p)!;
    const currency = currencyOf(region);
    (stored || replaced ? out.stats : out.newStats).push(
      copyLine([
        variantUuid,
        region,
        currency,
        row.price,
        row.updatedAt,
        row.change24h,
        row.change7d,
        row.change30d,
        row.change90d,
        row.reference7d,
        JSON.stringify(row.stats),
        s.source,
        // The parts of its JSON a default request sends, rendered now rather than per read.
        ...renderedFields(renderSeries(region, currency, row.stats, merged, s.source)),
      ]),
    );
  }
  return out;
}

function currencyOf(region: string): string {
  const r = parseRegion(region);
  if (!r) throw new Error(`unknown region ${region}`);
  return r.currency;
}
