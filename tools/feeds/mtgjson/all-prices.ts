import { isDate, record, shown } from '../json-stream';
import { dataEntries } from './data-entries';

/**
 * MTGJSON v5 `AllPrices.json` / `AllPricesToday.json` (data models "Price Formats", "Price List",
 * "Price Points": see fixtures/mtgjson/README.md):
 *
 *   { meta: { date, version },
 *     data: { <card uuid>: { paper?: { <provider>: PriceList }, mtgo?: { cardhoarder: PriceList } } } }
 *   PriceList = { currency, retail?: PricePoints, buylist?: PricePoints }
 *   PricePoints = { normal?: { <YYYY-MM-DD>: number }, foil?: {…}, etched?: {…} }
 */

/** One price a provider published for a card printing's finish on a day, as the file says it. */
export interface FeedPrice {
  /** The MTGJSON card (printing) uuid. */
  readonly uuid: string;
  readonly platform: 'paper' | 'mtgo';
  /** `tcgplayer`, `cardkingdom`, `cardmarket`, `cardsphere`, `manapool`, `cardhoarder`… as published. */
  readonly provider: string;
  readonly side: 'retail' | 'buylist';
  readonly finish: 'normal' | 'foil' | 'etched';
  /** ISO 4217, as the provider's price list says. */
  readonly currency: string;
  /** `YYYY-MM-DD`. */
  readonly date: string;
  /** Major units, as published (a provider may publish 0). */
  readonly price: number;
}

const PLATFORMS = new Set(['paper', 'mtgo']);
const SIDES = ['retail', 'buylist'] as const;
const FINISHES = ['normal', 'foil', 'etched'] as const;
const CURRENCY = /^[A-Z]{3}$/;

/**
 * Every price of an AllPrices-shaped file, one card at a time (constant memory: a card's 90 days
 * of prices at most). A value that breaks the published model (a price that is not a number, a
 * date that is not a date, a list without its currency) is a FeedParseError naming the card, as
 * is a file that is not JSON: nothing of such a file may be imported.
 */
export async function* readAllPrices(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<FeedPrice> {
  for await (const { uuid, value, bad } of dataEntries(file, chunks)) {
    const platforms = record(value) ?? bad('expected an object of platforms');
    for (const [platform, providersValue] of Object.entries(platforms)) {
      if (!PLATFORMS.has(platform)) continue; // a platform added after this adapter: not ours to guess
      const providers = record(providersValue) ?? bad(`${platform}: expected an object of providers`);
      for (const [provider, listValue] of Object.entries(providers)) {
        const list = record(listValue) ?? bad(`${platform}.${provider}: expected a price list`);
        const { currency } = list;
        if (typeof currency !== 'string' || !CURRENCY.test(currency))
          bad(`${platform}.${provider}.currency: expected an ISO 4217 code`);
        for (const side of SIDES) {
          if (list[side] === undefined) continue;
          const points = record(list[side]) ?? bad(`${platform}.${provider}.${side}: expected price points`);
          for (const finish of FINISHES) {
            if (points[finish] === undefined) continue;
            const days =
              record(points[finish]) ?? bad(`${platform}.${provider}.${side}.${finish}: expected dates`);
            for (const [date, price] of Object.entries(days)) {
              if (!isDate(date))
                bad(`${platform}.${provider}.${side}.${finish}: ${shown(date)} is not a date`);
              if (typeof price !== 'number' || !Number.isFinite(price) || price < 0)
                bad(
                  `${platform}.${provider}.${side}.${finish}.${date}: expected a price, got ${JSON.stringify(price)}`,
                );
              yield {
                uuid,
                platform: platform as FeedPrice['platform'],
                provider,
                side,
                finish,
                currency: currency as string,
                date,
                price: price as number,
              };
            }
          }
        }
      }
    }
  }
}
