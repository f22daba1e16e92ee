import { Card, CardSet, cardSlug, Game, uuidV5, Variant, variantSlug } from '@tcg/domain';

/** A tiny hand-made catalogue for integration tests: one game, one set, one card, two variants. */
export function tinyCatalogue(): { games: Game[]; sets: CardSet[]; cards: Card[]; variants: Variant[] } {
  const game: Game = { id: 'test-game', name: 'Test Game' };
  const setId = 'test-game-first-edition';
  const set: CardSet = {
    uuid: uuidV5(`set:${setId}`),
    id: setId,
    gameId: game.id,
    name: 'First Edition',
    code: 'FE',
    releaseDate: '2020-01-31',
  };
  const id = cardSlug({ game: game.id, set: set.name, name: 'Test Dragon', rarity: 'Rare' });
  const card: Card = {
    uuid: uuidV5(id),
    id,
    gameId: game.id,
    setId: set.id,
    name: 'Test Dragon',
    number: '7',
    rarity: 'Rare',
    details: null,
    vendorId: '1007',
    opensetId: null,
    imagedbId: null,
    sealed: false,
  };
  const nm = variantSlug(id, { condition: 'Near Mint', printing: 'Normal', language: 'English' });
  const psa = variantSlug(id, {
    grading: { company: 'PSA', grade: 10, gradeLabel: null, qualifier: null },
    printing: 'Normal',
    language: 'English',
  });
  const variants: Variant[] = [
    {
      uuid: uuidV5(nm),
      id: nm,
      cardUuid: card.uuid,
      type: 'raw',
      condition: 'Near Mint',
      grading: null,
      printing: 'Normal',
      language: 'English',
      vendorSkuId: 'SKU-NM',
    },
    {
      uuid: uuidV5(psa),
      id: psa,
      cardUuid: card.uuid,
      type: 'graded',
      condition: null,
      grading: { company: 'PSA', grade: 10, gradeLabel: null, qualifier: null },
      printing: 'Normal',
      language: 'English',
      vendorSkuId: null,
    },
  ];
  return { games: [game], sets: [set], cards: [card], variants };
}
