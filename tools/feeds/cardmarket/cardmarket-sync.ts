import { minorUnitsPerMajor } from '@tcg/domain';
import { FeedCatalogueRepository } from '@tcg/persistence';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { readBoundedJsonFile } from '../bounded-json';
import { rawVariant } from '../../loader/catalogue/build-catalogue';
import { utcDayStart } from '../json-stream';
import { DEFAULT_POLITENESS, PoliteClient, type Politeness } from '../polite-client';
import { writeFeedSeries, type FeedSeries } from '../feed-series';
import type { Feed, FeedOptions, FeedRun } from '../feed';
import type { RunCounts } from '../run-counts';
import { readPriceGuide, type CardmarketGuide, type CardmarketPrice } from './price-guide';

export const DEFAULT_CARDMARKET_BASE_URL = 'https://downloads.s3.cardmarket.com/productCatalog';

/** A game of Cardmarket's price guides: its `idGame`, and the game's slug (for the report). */
export interface CardmarketGame {
  readonly idGame: number;
  readonly game: string;
}

/** Magic, whose printings MTGJSON gives Cardmarket ids (`mcmId`); see docs/more-games.md. */
export const DEFAULT_CARDMARKET_GAMES: readonly CardmarketGame[] = [
  { idGame: 1, game: 'magic-the-gathering' },
];

/** Magic's price guide is tens of MB; a file past this is not one. */
const MAX_GUIDE_BYTES = 128 << 20;
/** Product ids looked up and series written per batch. */
const BATCH = 5_000;
/** A series stores minor units as 32-bit integers. */
const MAX_MINOR_UNITS = 2 ** 31 - 1;

/** `from`: a folder of `price_guide_<idGame>.json`. */
export interface CardmarketOptions extends FeedOptions {
  readonly games: readonly CardmarketGame[];
  readonly baseUrl?: string;
  readonly politeness?: Politeness;
}

/** Parses `CARDMARKET_GAMES`: `<idGame>:<game slug>[,…]`. */
export function parseCardmarketGames(value: string): CardmarketGame[] {
  const games = value.split(',').map((entry) => {
    const match = /^\s*([1-9]\d{0,3})\s*:\s*([a-z0-9]+(?:-[a-z0-9]+)*)\s*$/.exec(entry);
    if (!match) throw new Error(`CARDMARKET_GAMES: "${entry.slice(0, 60)}" is not <idGame>:<game slug>`);
    return { idGame: Number(match[1]), game: match[2]! };
  });
  if (games.length > 100) throw new Error('CARDMARKET_GAMES: at most 100 games');
  return games;
}

/**
 * Cardmarket's daily price guides (issue 25): each product's trend price, plain and foil, becomes
 * one EU observation (`source: cardmarket`, EUR) of the day the guide was created, on the Near Mint
 * variant (sealed: Sealed) of the printing a feed recorded for that product id
 * (`marketplace_products`: Magic's `mcmId`s from MTGJSON). A product no feed recorded is reported
 * as unmatched: nothing is matched by name. One run per game's guide.
 */
export function cardmarketFeed(ds: DataSource, opts: CardmarketOptions): Feed {
  return {
    name: 'cardmarket',
    async *runs() {
      const client = new PoliteClient(opts.politeness ?? DEFAULT_POLITENESS, opts.deadlines);
      for (const game of opts.games) yield guideRun(ds, opts, client, game);
    },
  };
}

function guideRun(
  ds: DataSource,
  opts: CardmarketOptions,
  client: PoliteClient,
  game: CardmarketGame,
): FeedRun<{ file: string; document: unknown }, CardmarketGuide> {
  const file = `price_guide_${game.idGame}.json`;
  return {
    file,
    unmatched: String(game.idGame),
    acquire: async () => {
      const document = opts.from
        ? await readBoundedJsonFile(join(opts.from, file), MAX_GUIDE_BYTES)
        : (
            await client.json(
              `${(opts.baseUrl ?? DEFAULT_CARDMARKET_BASE_URL).replace(/\/+$/, '')}/priceGuide/${file}`,
              MAX_GUIDE_BYTES,
            )
          )?.body;
      if (document === undefined) throw new Error(`${file}: not published`);
      return { file, document };
    },
    check: async ({ document }) => readPriceGuide(file, document),
    apply: async (guide, counts, paced) => {
      const details = { game: game.game, day: guide.day, unchanged: 0 };
      for (const seen of guide.rejected) counts.skip('a row of the wrong shape', seen);
      const t = utcDayStart(guide.day)!;
      for (let i = 0; i < guide.rows.length; i += BATCH)
        await paced(() => applyBatch(ds, guide.rows.slice(i, i + BATCH), t, counts, details));
      return { details };
    },
  };
}

async function applyBatch(
  ds: DataSource,
  rows: readonly CardmarketPrice[],
  t: number,
  counts: RunCounts,
  details: { unchanged: number },
): Promise<void> {
  const repo = new FeedCatalogueRepository(ds);
  counts.rowsRead += rows.length;
  const products = await repo.marketplaceProducts(
    'cardmarket',
    rows.map((r) => String(r.idProduct)),
  );
  const series: FeedSeries[] = [];
  for (const row of rows) {
    const product = products.get(String(row.idProduct));
    if (!product) {
      counts.miss(
        'no feed recorded this Cardmarket product id (never matched by name)',
        { idProduct: row.idProduct },
        String(row.idProduct),
      );
      continue;
    }
    counts.matched++;
    const finishes: [string, number | null][] = product.sealed
      ? [['Normal', row.trend]]
      : [
          ['Normal', row.trend],
          ['Foil', row.trendFoil],
        ];
    for (const [printing, euros] of finishes) {
      if (euros === null) continue;
      const minor = Math.round(euros * minorUnitsPerMajor('EUR'));
      if (minor > MAX_MINOR_UNITS) {
        counts.miss('a price above what a series stores', { idProduct: row.idProduct, printing });
        continue;
      }
      const variant = rawVariant(
        product.cardUuid,
        product.cardId,
        printing,
        product.language as Parameters<typeof rawVariant>[3],
        product.sealed ? 'Sealed' : 'Near Mint',
      );
      series.push({
        variantUuid: variant.uuid,
        cardUuid: product.cardUuid,
        region: 'EU',
        source: 'cardmarket',
        t: [t],
        p: [minor],
      });
    }
  }
  const stored = await repo.existingVariants(series.map((s) => s.variantUuid));
  const seen = new Set<string>();
  const known = series.filter((s) => {
    if (seen.has(s.variantUuid)) {
      counts.miss('a second product id of the same printing', { variant: s.variantUuid });
      return false;
    }
    seen.add(s.variantUuid);
    if (stored.has(s.variantUuid)) return true;
    counts.miss('the card has no variant of this finish', { variant: s.variantUuid });
    return false;
  });
  // MTGJSON's AllPrices relays Cardmarket too (synced before): a day a series already has is
  // left as it is, so the two never take turns rewriting it and a second sync writes nothing.
  const last = await repo.lastObserved(
    known.map((s) => s.variantUuid),
    'EU',
  );
  const fresh = known.filter((s) => !((last.get(s.variantUuid) ?? -Infinity) >= t));
  details.unchanged += known.length - fresh.length;
  details.unchanged += (await writeFeedSeries(ds, fresh, counts)).unchanged;
}
