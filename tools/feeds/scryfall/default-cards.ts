import { FeedParseError, isFeedText, jsonValuesAt, record, shown } from '../json-stream';

/**
 * Scryfall's `default_cards` bulk file: a JSON array of card objects, every card in English or in
 * its only printed language (Scryfall API docs "Bulk Data Files" and "Card Objects": see
 * fixtures/scryfall/README.md).
 */

/** Prices of a printing today, in major units; null where Scryfall has none. */
export interface ScryfallPrices {
  readonly usd: number | null;
  readonly usdFoil: number | null;
  readonly usdEtched: number | null;
  readonly eur: number | null;
  readonly eurFoil: number | null;
}

/** What the catalogue takes from a Scryfall card object. */
export interface FeedScryfallCard {
  /** Scryfall's id: our `imagedbId`, and MTGJSON's `identifiers.scryfallId`. */
  readonly id: string;
  readonly lang: string;
  readonly name: string;
  readonly set: string;
  readonly collectorNumber: string;
  readonly tcgplayerId: string | null;
  readonly tcgplayerEtchedId: string | null;
  readonly cardmarketId: string | null;
  readonly prices: ScryfallPrices;
  /** The `normal` image, or the first face's for a card whose faces have their own. */
  readonly imageUri: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * Every card object of a default_cards-shaped file, one at a time. Prices are published as decimal
 * strings (`"0.25"`) or null; any other value breaks the model and is a FeedParseError naming the
 * card, as is a file that is not a JSON array.
 */
export async function* readScryfallCards(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<FeedScryfallCard> {
  for await (const { keys, value, offset } of jsonValuesAt(file, chunks, ['$.*'])) {
    const card = record(value);
    const bad = (why: string): never => {
      throw new FeedParseError(file, offset, `card ${String(card?.['id'] ?? `#${String(keys[0])}`)}: ${why}`);
    };
    if (typeof keys[0] !== 'number') bad('expected the file to be an array of card objects');
    if (!card) return bad('expected an object');
    if (card['object'] !== 'card') bad(`object: expected "card", got ${JSON.stringify(card['object'])}`);
    const text = (f: string): string => {
      const v = card[f];
      return isFeedText(v) ? v : bad(`${f}: expected text, got ${shown(v)}`);
    };
    const id = text('id');
    if (!UUID.test(id)) bad('id: expected a UUID');
    const integerId = (f: string): string | null => {
      const v = card[f];
      if (v === undefined || v === null) return null;
      return Number.isSafeInteger(v) && (v as number) > 0
        ? String(v)
        : bad(`${f}: expected a positive integer`);
    };
    const prices = record(card['prices']) ?? bad('prices: expected an object');
    const price = (f: string): number | null => {
      const v = prices[f];
      if (v === undefined || v === null) return null;
      return typeof v === 'string' && DECIMAL.test(v)
        ? Number(v)
        : bad(`prices.${f}: expected a decimal string, got ${JSON.stringify(v)}`);
    };
    yield {
      id,
      lang: text('lang'),
      name: text('name'),
      set: text('set'),
      collectorNumber: text('collector_number'),
      tcgplayerId: integerId('tcgplayer_id'),
      tcgplayerEtchedId: integerId('tcgplayer_etched_id'),
      cardmarketId: integerId('cardmarket_id'),
      prices: {
        usd: price('usd'),
        usdFoil: price('usd_foil'),
        usdEtched: price('usd_etched'),
        eur: price('eur'),
        eurFoil: price('eur_foil'),
      },
      imageUri: imageOf(card),
    };
  }
}

function imageOf(card: Record<string, unknown>): string | null {
  const own = record(card['image_uris'])?.['normal'];
  if (typeof own === 'string') return own;
  const faces = card['card_faces'];
  const first = Array.isArray(faces) ? record(record(faces[0])?.['image_uris'])?.['normal'] : undefined;
  return typeof first === 'string' ? first : null;
}
