import { isFeedText, shown } from '../json-stream';
import { dataEntries } from './data-entries';

/**
 * MTGJSON v5 `TcgplayerSkus.json` (data model "Tcgplayer Skus": see fixtures/mtgjson/README.md):
 *
 *   { meta: { date, version },
 *     data: { <card uuid>: [ { condition, finish?, language, printing, productId, skuId } ] } }
 *
 * As MTGJSON's build writes it (fixtures/real/README.md cites the code): each value is the name of
 * TCGplayer's enum with `_` replaced by a space — `condition` `NEAR MINT` … `DAMAGED`, `UNOPENED`
 * for sealed; `printing` `NON FOIL` or `FOIL`; `language` `ENGLISH`, `CHINESE SIMPLIFIED`,
 * `PORTUGUESE BRAZIL` …; `finish` absent, or `FOIL ETCHED` (to v5.2.2) / `ETCHED` (v5.3.0 on); and
 * `skuId`/`productId` integers. The words are kept as published here; magic/vocabulary.ts reads
 * them in either spelling.
 */

/** One TCGplayer SKU of a card printing: the marketplace's condition × printing × language unit. */
export interface FeedSku {
  readonly uuid: string;
  readonly skuId: string;
  readonly productId: string;
  readonly condition: string;
  readonly printing: string;
  readonly finish: string | null;
  readonly language: string;
}

const FIELDS = ['condition', 'language', 'printing', 'productId', 'skuId'] as const;

/**
 * Every SKU of a TcgplayerSkus-shaped file, one card at a time. `skuId` and `productId` are read
 * as text (the model types them as strings; older files publish numbers). A SKU without one of
 * the model's required fields is a FeedParseError naming the card and field.
 */
export async function* readTcgplayerSkus(
  file: string,
  chunks: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<FeedSku> {
  for await (const { uuid, value, bad: badCard } of dataEntries(file, chunks)) {
    if (!Array.isArray(value)) badCard('expected an array of SKUs');
    for (const [i, sku] of (value as unknown[]).entries()) {
      const bad = (why: string): never => badCard(why, `SKU ${i}`);
      if (typeof sku !== 'object' || sku === null) bad('expected an object');
      const record = sku as Record<string, unknown>;
      const text: Record<string, string> = {};
      for (const field of FIELDS) {
        const v = record[field];
        if (isFeedText(v, 64)) text[field] = v;
        else if (
          typeof v === 'number' &&
          Number.isSafeInteger(v) &&
          (field === 'skuId' || field === 'productId')
        )
          text[field] = String(v);
        else bad(`${field}: expected text, got ${shown(v)}`);
      }
      const finish = record['finish'];
      if (finish !== undefined && finish !== null && !isFeedText(finish, 64))
        bad(`finish: expected text, got ${shown(finish)}`);
      yield {
        uuid,
        skuId: text['skuId']!,
        productId: text['productId']!,
        condition: text['condition']!,
        printing: text['printing']!,
        finish: typeof finish === 'string' ? finish : null,
        language: text['language']!,
      };
    }
  }
}
