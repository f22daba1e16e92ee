import {
  FeedCatalogueRepository,
  type CardChange,
  type IndexedCard,
  type VariantQuote,
} from '@tcg/persistence';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { MAGIC_GAME } from '../../loader/catalogue/magic-drafts';
import { AssertedIdsOfRun } from '../asserted-ids';
import { fetchJson, FeedDownloadError } from '../download';
import type { Feed, FeedOptions, Paced } from '../feed';
import { downloaded, fileRun, found, type FeedFile } from '../feed-file';
import { readScryfallCards, type FeedScryfallCard } from '../scryfall/default-cards';
import type { RunCounts } from '../run-counts';
import { rawVariant } from '../../loader/catalogue/build-catalogue';
import { languageOfScryfall } from './vocabulary';

export const DEFAULT_SCRYFALL_BULK_URL = 'https://api.scryfall.com/bulk-data';

/** `from`: a folder of `default-cards[-<digits>].json[.gz]`. */
export interface ScryfallOptions extends FeedOptions {
  readonly bulkUrl?: string;
}

/** Scryfall's price fields: the region, currency and print type of each. */
const PRICE_FIELDS = [
  { field: 'usd', region: 'NA', currency: 'USD', printing: 'Normal' },
  { field: 'usdFoil', region: 'NA', currency: 'USD', printing: 'Foil' },
  { field: 'usdEtched', region: 'NA', currency: 'USD', printing: 'Etched Foil' },
  { field: 'eur', region: 'EU', currency: 'EUR', printing: 'Normal' },
  { field: 'eurFoil', region: 'EU', currency: 'EUR', printing: 'Foil' },
] as const;

const CARDS_PER_WRITE = 2_000;

export interface ScryfallResult {
  readonly imagedbIdsSet: number;
  readonly quotesWritten: number;
}

/** Scryfall's `default_cards` bulk file, mapped by `syncScryfall`. */
export function scryfallFeed(ds: DataSource, opts: ScryfallOptions): Feed {
  return {
    name: 'scryfall',
    async *runs() {
      yield fileRun(
        'scryfall',
        'default_cards',
        () => acquire(opts),
        readScryfallCards,
        // Scryfall's objects carry no date: the file's fetch, never later than now.
        async (cards, counts, paced, file, runId) => ({
          ...(await syncScryfall(
            ds,
            cards,
            startOfDay(new Date(Math.min(file.fetchedAt.getTime(), Date.now()))),
            counts,
            paced,
            runId,
          )),
        }),
      );
    },
  };
}

/**
 * Scryfall's `default_cards`: the Scryfall id of each card (our `imagedbId`, what the explorer
 * shows an image by) and the day's prices. A card is found by the Scryfall id MTGJSON gave it,
 * else by set code, collector number and name (a catalogue synced from Scryfall alone); Scryfall
 * adds no cards. Its prices relay TCGplayer's and Cardmarket's, the regions' primary sources,
 * once a day without a history: they are kept as `scryfall` quotes (Near Mint, the card's
 * language), observed on `observedAt`, never mixed into the series. Each batch is written
 * through `paced`. A found card's Scryfall id and the TCGplayer and Cardmarket ids Scryfall gives
 * it are recorded for the id crosswalk under `runId`: the check on MTGJSON's.
 */
export async function syncScryfall(
  ds: DataSource,
  cards: AsyncIterable<FeedScryfallCard>,
  observedAt: number,
  counts: RunCounts,
  paced: Paced,
  runId?: string,
): Promise<ScryfallResult> {
  const repo = new FeedCatalogueRepository(ds);
  const ids = new AssertedIdsOfRun('scryfall', runId);
  const index = await repo.gameIndex(MAGIC_GAME.id);
  const codeOfSet = new Map(index.sets.map((s) => [s.uuid, s.code.toLowerCase()]));
  const byImagedb = new Map<string, IndexedCard>();
  const byNumberName = new Map<string, IndexedCard>();
  for (const c of index.cards) {
    if (c.imagedbId) byImagedb.set(c.imagedbId, c);
    else if (!c.sealed)
      byNumberName.set(`${codeOfSet.get(c.setUuid)}|${c.number ?? ''}|${c.name.toLowerCase()}`, c);
  }
  const result = { imagedbIdsSet: 0, quotesWritten: 0 };
  let changes: CardChange[] = [];
  let quotes: VariantQuote[] = [];
  const flush = async () => {
    result.imagedbIdsSet += await repo.updateCards(changes, ids.take());
    const stored = await repo.existingVariants(quotes.map((q) => q.variantUuid));
    result.quotesWritten += await repo.upsertQuotes(quotes.filter((q) => stored.has(q.variantUuid)));
    changes = [];
    quotes = [];
  };

  let pending = 0;
  for await (const sc of cards) {
    counts.rowsRead++;
    let card = byImagedb.get(sc.id);
    if (!card) {
      const key = `${sc.set.toLowerCase()}|${sc.collectorNumber}|${sc.name.toLowerCase()}`;
      card = byNumberName.get(key);
      if (card) {
        byNumberName.delete(key);
        byImagedb.set(sc.id, card);
        changes.push({ ...card, imagedbId: sc.id });
      }
    }
    if (!card) {
      counts.miss(
        'no card with this Scryfall id, set and number',
        { id: sc.id, set: sc.set, number: sc.collectorNumber, name: sc.name },
        `${sc.set} ${sc.collectorNumber} ${sc.name}`,
      );
      continue;
    }
    ids.add(card.uuid, null, 'scryfall_id', sc.id);
    ids.add(card.uuid, null, 'tcgplayer_product', sc.tcgplayerId);
    ids.add(card.uuid, null, 'tcgplayer_etched_product', sc.tcgplayerEtchedId);
    ids.add(card.uuid, null, 'cardmarket_product', sc.cardmarketId);
    const language = languageOfScryfall(sc.lang);
    if (!language) {
      // The card keeps its Scryfall id; a price of a language we have no word for is not guessed.
      counts.miss(
        'unknown language',
        { id: sc.id, set: sc.set, number: sc.collectorNumber, lang: sc.lang },
        sc.lang,
      );
      continue;
    }
    counts.matched++;
    for (const { field, region, currency, printing } of PRICE_FIELDS) {
      const price = sc.prices[field];
      if (price === null || price <= 0) continue;
      const variant = rawVariant(card.uuid, card.id, printing, language, 'Near Mint');
      quotes.push({
        variantUuid: variant.uuid,
        region,
        source: 'scryfall',
        side: 'retail',
        currency,
        observedAt,
        price: Math.round(price * 100),
      });
    }
    if (++pending >= CARDS_PER_WRITE) {
      pending = 0;
      await paced(flush);
    }
  }
  await paced(flush);
  return result;
}

/** Scryfall publishes each bulk file under a dated name, listed by its bulk-data object. */
async function acquire(opts: ScryfallOptions): Promise<FeedFile> {
  if (opts.from) return found(opts.from, /^default-cards(-\d+)?\.json(\.gz)?$/, 'scryfall default_cards');
  const indexUrl = `${opts.bulkUrl ?? DEFAULT_SCRYFALL_BULK_URL}/default-cards`;
  const index = (await fetchJson(indexUrl, opts.deadlines)) as { download_uri?: unknown } | null;
  const uri = index?.download_uri;
  if (typeof uri !== 'string' || !/^https?:\/\//.test(uri))
    throw new FeedDownloadError(indexUrl, 'the bulk-data object has no download_uri');
  if (!trustedBulkFile(new URL(indexUrl), new URL(uri)))
    throw new FeedDownloadError(
      indexUrl,
      `download_uri ${uri.slice(0, 200)} is not Scryfall's, nor the index's host`,
    );
  const extension = new URL(uri).pathname.endsWith('.gz') ? '.json.gz' : '.json';
  return downloaded(uri, join(opts.dir, `default-cards${extension}`), { deadlines: opts.deadlines });
}

/**
 * Where a bulk-data object may send the sync: Scryfall's own hosts over HTTPS (its files are on
 * data.scryfall.io), or the host of the index itself (a mirror). Nowhere else, so that an index
 * cannot point the sync at an address inside the cluster.
 */
function trustedBulkFile(index: URL, file: URL): boolean {
  if (file.host === index.host && file.protocol === index.protocol) return true;
  return file.protocol === 'https:' && /(^|\.)scryfall\.(io|com)$/.test(file.hostname);
}

function startOfDay(date: Date): number {
  return Math.floor(date.getTime() / 86_400_000) * 86_400;
}
