import { readPrices, readProducts, resultsOf, TcgcsvFormatError } from './tcgcsv-documents';
import { checkTcgcsvGames, derivedGame, excludedWhy, findCategory, gameOf, knownGame } from './tcgcsv-games';

const envelope = (results: unknown[]) => ({ totalItems: results.length, success: true, errors: [], results });

describe('TCGCSV documents', () => {
  it.each<[string, unknown]>([
    ['not an object', []],
    ['a failed answer', { success: false, errors: ['No results'], results: [] }],
    ['no results', { success: true, errors: [] }],
  ])('refuses %s whole', (_, document) => {
    expect(() => resultsOf('3/groups', document)).toThrow(TcgcsvFormatError);
  });

  it('tells cards from sealed products by Number or Rarity, and caps what it takes', () => {
    const { rows, rejected } = readProducts(
      '3/3170/products',
      envelope([
        {
          productId: 1,
          name: 'Lugia VSTAR',
          extendedData: [{ name: 'Number', displayName: 'Card Number', value: '139/195' }],
        },
        {
          productId: 2,
          name: 'Booster Box',
          extendedData: [{ name: 'UPC', displayName: 'UPC', value: '0820650850820' }],
        },
        { productId: 3, name: 'x'.repeat(301), extendedData: [] },
        { productId: -4, name: 'Negative', extendedData: [] },
        'not a row',
      ]),
    );
    expect(rows).toEqual([
      { productId: 1, name: 'Lugia VSTAR', number: '139/195', rarity: null, sealed: false },
      { productId: 2, name: 'Booster Box', number: null, rarity: null, sealed: true },
    ]);
    expect(rejected.map((r) => r.reason)).toEqual([
      'productId or name missing',
      'productId or name missing',
      'not an object',
    ]);
  });

  it('reads a null market price as no sale and refuses prices of the wrong type or range', () => {
    const { rows, rejected } = readPrices('62/2061/prices', {
      success: true,
      errors: [],
      results: [
        { productId: 9, subTypeName: '1st Edition Rainbow Foil', marketPrice: 4.1 },
        { productId: 9, subTypeName: 'Normal', marketPrice: null },
        { productId: 9, subTypeName: 'Cold Foil', marketPrice: '4.10' },
        { productId: 9, subTypeName: 'Gold Foil', marketPrice: -1 },
        { productId: 9, subTypeName: '', marketPrice: 1 },
      ],
    });
    expect(rows).toEqual([
      { productId: 9, subTypeName: '1st Edition Rainbow Foil', marketPrice: 4.1 },
      { productId: 9, subTypeName: 'Normal', marketPrice: null },
    ]);
    expect(rejected.map((r) => r.reason)).toEqual([
      'marketPrice out of range',
      'marketPrice out of range',
      'productId or subTypeName missing',
    ]);
  });
});

describe('TCGCSV games configuration', () => {
  const listing = [
    { categoryId: 62, name: 'Flesh & Blood TCG', displayName: 'Flesh and Blood TCG' },
    { categoryId: 3, name: 'Pokemon', displayName: 'Pokemon' },
  ];

  it('finds a category by id, or by name or display name without case or punctuation', () => {
    expect(findCategory({ category: 3, game: 'pokemon' }, listing)?.categoryId).toBe(3);
    expect(findCategory({ category: 'flesh & blood tcg', game: 'fab' }, listing)?.categoryId).toBe(62);
    expect(findCategory({ category: 'Flesh and Blood TCG', game: 'fab' }, listing)?.categoryId).toBe(62);
    expect(findCategory({ category: 'Lorcana TCG', game: 'lorcana' }, listing)).toBeUndefined();
    expect(gameOf({ category: 3, game: 'pokemon' }, listing[1]!)).toEqual({ id: 'pokemon', name: 'Pokemon' });
  });

  it.each<[string, unknown, RegExp]>([
    ['an empty list', [], /array of 1 to 200 games/],
    [
      'a category of the wrong type',
      [{ category: true }],
      /category must be a TCGplayer category id or name/,
    ],
    ['a game that is not a slug', [{ category: 3, game: 'Pokémon!' }], /game must be the game's slug/],
    ['a game without its slug', [{ category: 3 }], /game must be the game's slug/],
    [
      'the same category twice',
      [
        { category: 'Pokemon', game: 'pokemon' },
        { category: 'pokemon', game: 'pokemon-2' },
      ],
      /configured twice/,
    ],
  ])('refuses %s, naming the entry', (_, config, message) => {
    expect(() => checkTcgcsvGames(config, 'games.json')).toThrow(message);
  });

  const category = (categoryId: number, name: string, displayName = name) => ({
    categoryId,
    name,
    displayName,
  });

  it.each([
    [category(1, 'Magic', 'Magic: The Gathering'), /MTGJSON/],
    [category(69, 'Marvel Comics'), /comic books/],
    [category(70, 'DC Comics'), /comic books/],
    [category(21, 'Supplies'), /accessories/],
    [category(62, 'Flesh & Blood TCG', 'Flesh and Blood TCG'), undefined],
    [category(3, 'Pokemon'), undefined],
    [category(85, 'Pokemon Japan'), undefined],
  ])('leaves out of the default list: %j', (c, why) => {
    if (why) expect(excludedWhy(c)).toMatch(why);
    else expect(excludedWhy(c)).toBeUndefined();
  });

  it('keeps the known games their slugs and names; names the others after the category', () => {
    expect(knownGame(category(62, 'Flesh & Blood TCG', 'Flesh and Blood TCG'))).toMatchObject({
      game: 'flesh-and-blood',
      name: 'Flesh and Blood',
    });
    expect(knownGame(category(2, 'YuGiOh'))).toMatchObject({ game: 'yu-gi-oh', name: 'Yu-Gi-Oh!' });
    expect(knownGame(category(86, 'Gundam Card Game'))).toBeUndefined();
    expect(derivedGame(category(86, 'gundam', 'Gundam Card Game'))).toEqual({
      id: 'gundam-card-game',
      name: 'Gundam Card Game',
    });
    expect(derivedGame(category(77, 'Sorcery Contested Realm', 'Sorcery: Contested Realm'))).toEqual({
      id: 'sorcery-contested-realm',
      name: 'Sorcery: Contested Realm',
    });
    expect(derivedGame(category(99, '***')).id).toBe('tcgplayer-99');
  });
});
