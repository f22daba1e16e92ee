import type {
  CardWithVariants,
  JoinedVariantJson,
  LoadedCards,
  SeriesRead,
  VariantsRead,
} from '@tcg/rendering';
import type { JoinedCard } from '@tcg/domain';

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
