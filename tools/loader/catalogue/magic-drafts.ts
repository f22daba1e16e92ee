import type { Language } from '@tcg/domain';
import { sealedDraft, type DraftCard, type DraftSet } from './catalogue.model';
import { gradingsFor } from './grading-ladder';
import {
  isPaperSet,
  isSecondaryFace,
  magicCardHasLanguages,
  magicCardIsGradable,
  magicCardName,
  magicPrintings,
  magicSealedProducts,
  magicSetLanguages,
  magicValueTier,
} from './magic-rules';
import { readMtgJsonSets, type MtgJsonCard, type MtgJsonSet } from './magic-source';

export const MAGIC_GAME = { id: 'magic-the-gathering', name: 'Magic: The Gathering' } as const;

/** Release dates before this get the Beckett vintage grading scales. */
const VINTAGE_BEFORE = '2000-01-01';

function magicCard(set: MtgJsonSet, card: MtgJsonCard, setLanguages: readonly Language[]): DraftCard {
  const valueTier = magicValueTier(set, card);
  const printings = magicPrintings(set, card);
  return {
    name: magicCardName(card),
    number: card.number ?? card.mciNumber ?? null,
    rarity: card.rarity,
    details: card.type ?? null,
    vendorId: null,
    opensetId: card.id,
    sealed: false,
    valueTier,
    printings,
    languages: magicCardHasLanguages(card) ? setLanguages : [],
    gradings: magicCardIsGradable(card, valueTier)
      ? gradingsFor({ key: card.id, valueTier, vintage: set.releaseDate < VINTAGE_BEFORE })
      : [],
  };
}

/**
 * Magic sets of the selection (every paper set for `'all'`), in release order, each with its cards in
 * MTGJSON order followed by its sealed products. Secondary faces are folded into their front face;
 * Magic Online-only sets are left out.
 */
export function magicDraftSets(selection: readonly string[] | 'all'): DraftSet[] {
  const all = readMtgJsonSets();
  let sets: MtgJsonSet[];
  if (selection === 'all') {
    sets = [...all.values()].filter(isPaperSet);
  } else {
    sets = selection.map((code) => {
      const set = all.get(code);
      if (!set) throw new Error(`unknown Magic set code ${code}`);
      if (!isPaperSet(set)) throw new Error(`Magic set ${code} exists only online`);
      return set;
    });
  }
  sets.sort((a, b) =>
    a.releaseDate < b.releaseDate ? -1 : a.releaseDate > b.releaseDate ? 1 : a.code < b.code ? -1 : 1,
  );
  return sets.map((set) => {
    const languages = magicSetLanguages(set);
    const cards: DraftCard[] = set.cards
      .filter((c) => !isSecondaryFace(c))
      .map((c) => magicCard(set, c, languages));
    for (const product of magicSealedProducts(set)) cards.push(sealedDraft(product.name, product.valueTier));
    return { gameId: MAGIC_GAME.id, code: set.code, name: set.name, releaseDate: set.releaseDate, cards };
  });
}
