import type {
  CardWithVariants,
  JoinedVariantJson,
  LoadedCards,
  SeriesRead,
  VariantsRead,
} from '@tcg/rendering';
import type { JoinedCard, KeysetQuery } from '@tcg/domain';
import type { CardKeysetReads } from '../lib/reads/card-keyset.repository.port';

/** Variants joined in SQL as `json` says, in `region`. */
export const joinedRead = (json: JoinedVariantJson, region = 'NA'): VariantsRead => ({
  kind: 'joined',
  json,
  region,
});

/** Variants with their series as `read` says, in `regions` (the first primary). */
export const seriesRead = (read: SeriesRead, regions: readonly string[] = ['NA']): VariantsRead => ({
  kind: 'series',
  read,
  regions,
});

/** The cards of a read with series; throws on joined ones. */
export function seriesCards(loaded: LoadedCards): CardWithVariants[] {
  if (loaded.kind !== 'series') throw new Error('expected cards read with their series, got joined ones');
  return loaded.cards;
}

/** The cards of a joined read; throws on cards read with their series. */
export function joinedCards(loaded: LoadedCards): JoinedCard[] {
  if (loaded.kind !== 'joined') throw new Error('expected joined cards, got cards read with their series');
  return loaded.cards;
}

/** The card UUIDs of every page of a v2 keyset read, walked forward `limit` at a time from the first. */
export async function walkKeyset(
  reads: CardKeysetReads,
  query: KeysetQuery,
  limit: number,
): Promise<string[]> {
  const seen: string[] = [];
  let page = await reads.page(query, limit);
  for (;;) {
    seen.push(...page.rows.map((r) => r.cardUuid));
    if (!page.more) return seen;
    page = await reads.page(query, limit, { key: page.rows.at(-1)!.key, backward: false });
  }
}
