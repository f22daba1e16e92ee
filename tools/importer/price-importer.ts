import {
  IngestObservation,
  PriceIngestRepository,
  refreshSummariesIfStale,
  summariesStale,
} from '@tcg/persistence';
import { pacedBy } from '../common/rest-ratio';
import { parseObservation, ParsedRow } from './observation-row';
import { NumberedRecord } from './read-records';

export interface RejectedRow {
  readonly line: number;
  readonly reason: string;
}

export interface ImportProgress {
  readonly lines: number;
  readonly applied: number;
  readonly rejected: number;
  readonly batches: number;
}

export interface ImportReport extends ImportProgress {
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly seriesRefreshed: number;
  /** Whether an earlier write (an import or load killed before its refresh) had left the summaries stale. */
  readonly repairedStaleSummaries: boolean;
  /** The first rejected rows (all of them are counted in `rejected`). */
  readonly rejectedRows: RejectedRow[];
}

export interface ImportOptions {
  readonly batchSize: number;
  readonly nowSeconds: number;
  readonly onBatch?: (progress: ImportProgress) => void;
  readonly maxRejectedListed?: number;
  /**
   * After each batch, rest this many times as long as the batch took (0, the default: none), as
   * the bulk generation does: an import beside serving traffic on few cores then takes at most
   * 1 / (1 + restRatio) of what it would, and the requests keep the rest.
   */
  readonly restRatio?: number;
  /** How a rest waits (tests pass their own); milliseconds. */
  readonly sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Reads price records, rejects malformed rows with their line number and reason, and applies the
 * valid rows in batches: each batch is one transaction (all of it or none of it), and re-applying
 * a file changes nothing. Killed at any point, the next run (or load, or start) finishes the
 * summary refresh.
 */
export class PriceImporter {
  constructor(private readonly repo: PriceIngestRepository) {}

  async run(records: AsyncIterable<NumberedRecord>, opts: ImportOptions): Promise<ImportReport> {
    // Recorded only: the refresh at the end of the run covers these marks along with its own.
    const repairedStaleSummaries = await summariesStale(this.repo.dataSource);
    const maxListed = opts.maxRejectedListed ?? 1000;
    const rejectedRows: RejectedRow[] = [];
    let rejected = 0;
    const paced = pacedBy(opts.restRatio ?? 0, opts.sleep);
    const reject = (line: number, reason: string) => {
      rejected++;
      if (rejectedRows.length < maxListed) rejectedRows.push({ line, reason });
    };
    const totals = {
      lines: 0,
      applied: 0,
      batches: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      seriesRefreshed: 0,
    };
    let batch: { line: number; row: ParsedRow }[] = [];

    const flush = async () => {
      if (batch.length === 0) return;
      const variants = await this.repo.resolveVariantRefs(
        batch.flatMap((b) => (b.row.variantRef ? [b.row.variantRef] : [])),
      );
      const skus = await this.repo.resolveVendorSkus(
        batch.flatMap((b) => (b.row.vendorSku ? [b.row.vendorSku] : [])),
      );
      const observations: IngestObservation[] = [];
      const lineOf: number[] = [];
      for (const { line, row } of batch) {
        const uuid = row.variantRef ? variants.get(row.variantRef) : skus.get(row.vendorSku!);
        if (!uuid) {
          reject(
            line,
            row.variantRef
              ? `unknown variant_id '${row.variantRef}'`
              : `unknown vendor_sku '${row.vendorSku}'`,
          );
          continue;
        }
        observations.push({ variantUuid: uuid, region: row.region, t: row.t, price: row.price });
        lineOf.push(line);
      }
      const lines = `${batch[0]!.line}-${batch[batch.length - 1]!.line}`;
      batch = [];
      if (observations.length === 0) return;
      // The batch and its report, then the rest (`--rest-ratio`) after them.
      await paced(async () => {
        try {
          const result = await this.repo.ingest(observations);
          // A series a real feed writes is not overwritten by a file: its rows are refused, by line.
          const refused = new Map(
            result.refused.map((r) => [`${r.variantUuid}|${r.region}`, r.storedSource]),
          );
          let refusedRows = 0;
          observations.forEach((o, i) => {
            const source = refused.get(`${o.variantUuid}|${o.region}`);
            if (source === undefined) return;
            refusedRows++;
            reject(
              lineOf[i]!,
              `the variant's ${o.region} prices come from ${source}: an import does not overwrite another source's series`,
            );
          });
          totals.applied += observations.length - refusedRows;
          totals.inserted += result.inserted;
          totals.updated += result.updated;
          totals.unchanged += result.unchanged;
          totals.seriesRefreshed += result.seriesRefreshed;
          totals.batches++;
        } catch (error) {
          throw new Error(
            `batch of lines ${lines} was not applied (rolled back): ${(error as Error).message}`,
            { cause: error },
          );
        }
        opts.onBatch?.({ lines: totals.lines, applied: totals.applied, rejected, batches: totals.batches });
      });
    };

    for await (const rec of records) {
      totals.lines = rec.line;
      if (rec.error || !rec.record) {
        reject(rec.line, rec.error ?? 'unreadable');
        continue;
      }
      const parsed = parseObservation(rec.record, opts.nowSeconds);
      if (!parsed.ok) {
        reject(rec.line, parsed.reason);
        continue;
      }
      batch.push({ line: rec.line, row: parsed.row });
      if (batch.length >= opts.batchSize) await flush();
    }
    await flush();
    // Card, set and game values follow the new prices once per import, not per batch. Each batch
    // that changed rows left a durable mark: this run's marks, unless a concurrent refresh has
    // already covered them, and those of any run killed before its own refresh.
    await refreshSummariesIfStale(this.repo.dataSource, { analyze: true });
    return { ...totals, rejected, rejectedRows, repairedStaleSummaries };
  }
}
