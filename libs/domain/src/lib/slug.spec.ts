import { cardSlug, slugify } from './slug';

describe('slugify', () => {
  it.each([
    ['Aether Revolt', 'aether-revolt'],
    ['Æther Vial', 'aether-vial'],
    ["Urza's Saga", 'urzas-saga'],
    ['Lim-Dûl the Necromancer', 'lim-dul-the-necromancer'],
    ['  Fire // Ice  ', 'fire-ice'],
    ['Chinese (S)', 'chinese-s'],
  ])('%s → %s', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});

describe('cardSlug', () => {
  it('joins game, set, name and rarity, and appends the number only when asked', () => {
    const parts = { game: 'pokemon', set: 'Base Set', name: 'Charizard', rarity: 'Holo Rare' };
    expect(cardSlug(parts)).toBe('pokemon-base-set-charizard-holo-rare');
    expect(cardSlug({ ...parts, number: '4/102' })).toBe('pokemon-base-set-charizard-holo-rare-4-102');
  });
});
