import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { log } from '../../common/log';
import type { Feed, FeedOptions, Paced } from '../feed';
import { downloaded, fileRun, found, type FeedFile, type Reader } from '../feed-file';
import { readAllPrices } from '../mtgjson/all-prices';
import { readAllPrintings } from '../mtgjson/all-printings';
import { readTcgplayerSkus } from '../mtgjson/tcgplayer-skus';
import type { RunCounts } from '../run-counts';
import { syncPrices } from './prices-sync';
import { syncPrintings, type PrintingsResult } from './printings-sync';
import { syncSkus } from './skus-sync';

export const DEFAULT_MTGJSON_BASE_URL = 'https://mtgjson.com/api/v5';

/** `from`: a folder of the files in any of MTGJSON's compressions. */
export interface MtgjsonOptions extends FeedOptions {
  readonly baseUrl?: string;
  /** The compression to download: MTGJSON publishes `.gz`, `.xz` and `.bz2`. */
  readonly compression?: '.gz' | '.xz' | '.bz2';
}

/**
 * MTGJSON v5 (issue 23): `AllPrintings`, then `TcgplayerSkus` and `AllPrices`, which map onto the
 * printings' cards and are skipped when `AllPrintings` was not imported.
 */
export function mtgjsonFeed(ds: DataSource, opts: MtgjsonOptions): Feed {
  const run = <T>(
    name: string,
    reader: Reader<T>,
    apply: (
      rows: AsyncIterable<T>,
      counts: RunCounts,
      paced: Paced,
      runId: string,
    ) => Promise<Record<string, unknown>>,
  ) =>
    fileRun(
      'mtgjson',
      name,
      () => acquire(opts, name),
      reader,
      (rows, counts, paced, _file, runId) => apply(rows, counts, paced, runId),
    );
  return {
    name: 'mtgjson',
    async *runs() {
      let printings: PrintingsResult | undefined;
      yield run('AllPrintings', readAllPrintings, async (items, counts, paced, runId) => {
        printings = await syncPrintings(ds, items, counts, paced, runId);
        return {
          matchedBy: printings.matchedBy,
          cardsUpdated: printings.cardsUpdated,
          cardmarketIds: printings.cardmarketIdsWritten,
          v3CardsUnmapped: printings.v3Unmapped.length,
        };
      });
      // Set by the run above, which the sync has made before asking for the next.
      const mapped = printings as PrintingsResult | undefined;
      if (!mapped) {
        const skipped = 'AllPrintings was not imported: its cards are what this file maps onto';
        for (const file of ['TcgplayerSkus', 'AllPrices']) yield { file, skipped };
        return;
      }
      if (mapped.v3Unmapped.length > 0)
        log('warn', 'v3 cards of the synced sets without a v5 counterpart: kept as they are', {
          count: mapped.v3Unmapped.length,
          first: mapped.v3Unmapped.slice(0, 5),
        });
      yield run('TcgplayerSkus', readTcgplayerSkus, async (rows, counts, paced, runId) => ({
        ...(await syncSkus(ds, rows, mapped.printings, counts, paced, runId)),
      }));
      yield run('AllPrices', readAllPrices, async (rows, counts, paced) => ({
        ...(await syncPrices(ds, rows, mapped.printings, counts, paced)),
      }));
    },
  };
}

/** The file: downloaded and verified against its published `.sha256`, or found in `from`. */
function acquire(opts: MtgjsonOptions, name: string): Promise<FeedFile> {
  if (opts.from)
    return found(opts.from, new RegExp(`^${name}\\.json(\\.gz|\\.xz|\\.bz2)?$`), `mtgjson ${name}`);
  const extension = opts.compression ?? '.gz';
  const url = `${opts.baseUrl ?? DEFAULT_MTGJSON_BASE_URL}/${name}.json${extension}`;
  return downloaded(url, join(opts.dir, `${name}.json${extension}`), {
    sha256Url: `${url}.sha256`,
    deadlines: opts.deadlines,
  });
}
