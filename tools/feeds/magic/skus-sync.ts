import type { Variant } from '@tcg/domain';
import { FeedCatalogueRepository, writeCatalogue } from '@tcg/persistence';
import type { DataSource } from 'typeorm';
import { AssertedIdsOfRun } from '../asserted-ids';
import type { FeedSku } from '../mtgjson/tcgplayer-skus';
import type { Paced } from '../feed';
import type { RunCounts } from '../run-counts';
import { rawVariant } from '../../loader/catalogue/build-catalogue';
import type { MappedPrinting } from './printings-sync';
import { conditionOfSku, isKnownSkuFinish, isSkuPrinting, languageOfSku, printingOfSku } from './vocabulary';

/** SKUs resolved per transaction. */
const SKUS_PER_WRITE = 5_000;

export interface SkusResult {
  readonly variantsCreated: number;
  readonly skusSet: number;
}

/**
 * Gives the catalogue TCGplayer's real SKUs (MTGJSON v5 `TcgplayerSkus`): each SKU is a variant
 * (condition × print type × language) of the card its printing maps to; the variant is created
 * when the catalogue lacks it, and takes the SKU as its `vendorSkuId` (replacing none, or the
 * sample's synthetic one). MTGJSON's words are read in every spelling it has published
 * (vocabulary.ts `skuWord`); a SKU of an unknown printing or in an unknown condition, print type,
 * finish or language is reported with the value seen, as is one another variant already holds.
 * Each batch is written through `paced`; each SKU a variant takes is recorded for the id crosswalk
 * under `runId`.
 */
export async function syncSkus(
  ds: DataSource,
  skus: AsyncIterable<FeedSku>,
  printings: ReadonlyMap<string, MappedPrinting>,
  counts: RunCounts,
  paced: Paced,
  runId?: string,
): Promise<SkusResult> {
  const repo = new FeedCatalogueRepository(ds);
  const ids = new AssertedIdsOfRun('mtgjson', runId);
  const result = { variantsCreated: 0, skusSet: 0 };
  let batch = new Map<string, { sku: FeedSku; variant: Variant }>();

  const flush = async () => {
    const entries = [...batch.values()];
    batch = new Map();
    if (entries.length === 0) return;
    const holders = await repo.variantsOfSkus(entries.map((e) => e.sku.skuId));
    const usable = entries.filter(({ sku, variant }) => {
      const holder = holders.get(sku.skuId);
      if (holder === undefined || holder === variant.uuid) return true;
      counts.miss('SKU held by another variant', { uuid: sku.uuid, skuId: sku.skuId, heldBy: holder });
      return false;
    });
    const stored = await repo.existingVariants(usable.map((e) => e.variant.uuid));
    const created = usable.filter((e) => !stored.has(e.variant.uuid)).map((e) => e.variant);
    if (created.length > 0) await writeCatalogue(ds, { games: [], sets: [], cards: [], variants: created });
    result.variantsCreated += created.length;
    counts.created += created.length;
    const changed = new Map<string, string>();
    for (const { sku, variant } of usable)
      if (stored.has(variant.uuid) && stored.get(variant.uuid) !== sku.skuId)
        changed.set(variant.uuid, sku.skuId);
    for (const { sku, variant } of usable)
      ids.add(variant.cardUuid, variant.uuid, 'tcgplayer_sku', sku.skuId);
    // Every usable SKU's variant is stored by now, created just above or before.
    result.skusSet += await repo.setVendorSkus(changed, ids.take());
    counts.matched += usable.length - created.length;
  };

  for await (const sku of skus) {
    counts.rowsRead++;
    const printing = printings.get(sku.uuid);
    if (!printing) {
      counts.miss('unknown card uuid', { uuid: sku.uuid, skuId: sku.skuId }, sku.uuid);
      continue;
    }
    const printType = printingOfSku(sku.printing, sku.finish);
    const row = {
      uuid: sku.uuid,
      skuId: sku.skuId,
      printing: sku.printing,
      finish: sku.finish,
      condition: sku.condition,
      language: sku.language,
    };
    // A sealed product has one variant: its unopened, non-foil SKU (TCGplayer's `UNOPENED`).
    if (
      printing.sealed &&
      (!isSkuPrinting(sku.printing, 'NON FOIL') || conditionOfSku(sku.condition) !== 'Sealed')
    ) {
      counts.miss(
        'a sealed product SKU other than its sealed one',
        row,
        `${sku.condition} / ${sku.printing}`,
      );
      continue;
    }
    const condition = conditionOfSku(sku.condition);
    const language = languageOfSku(sku.language);
    // `UNOPENED` is a sealed product's condition, never a card's.
    if (!printType || !condition || (condition === 'Sealed') !== printing.sealed || !language) {
      // The value not understood is kept as the reason's sample: a report names what was seen.
      const [what, seen] = !isKnownSkuFinish(sku.finish)
        ? ['finish', sku.finish ?? '']
        : !printType
          ? ['print type', sku.printing]
          : !condition || (condition === 'Sealed') !== printing.sealed
            ? ['condition', sku.condition]
            : ['language', sku.language];
      counts.miss(`unknown ${what}`, row, seen);
      continue;
    }
    // The faces of a multi-face card list the same SKUs: one variant each, every row counted.
    if (batch.has(sku.skuId)) {
      counts.matched++;
      continue;
    }
    batch.set(sku.skuId, {
      sku,
      variant: rawVariant(printing.cardUuid, printing.cardId, printType, language, condition, sku.skuId),
    });
    if (batch.size >= SKUS_PER_WRITE) await paced(flush);
  }
  await paced(flush);
  return result;
}
