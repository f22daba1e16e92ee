import { FeedParseError, isFeedText, jsonValuesAt, shown } from '../json-stream';

/** One entry of an MTGJSON file's `data` object: a card's uuid and its value. */
export interface DataEntry {
  readonly uuid: string;
  readonly value: unknown;
  /** Throws the FeedParseError of a fault in this entry: `card <uuid>[, <within>]: <why>`. */
  readonly bad: (why: string, within?: string) => never;
}

/**
 * The entries of `data` in an MTGJSON file keyed by card uuid (AllPrices, TcgplayerSkus), one at
 * a time; a key that is not an id is a FeedParseError.
 */
export async function* dataEntries(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<DataEntry> {
  for await (const { keys, value, offset } of jsonValuesAt(file, chunks, ['$.data.*'])) {
    const uuid = String(keys[1]);
    if (!isFeedText(uuid, 64))
      throw new FeedParseError(file, offset, `a card key ${shown(uuid)} is not an id`);
    const bad = (why: string, within?: string): never => {
      throw new FeedParseError(file, offset, `card ${uuid}${within ? `, ${within}` : ''}: ${why}`);
    };
    yield { uuid, value, bad };
  }
}
