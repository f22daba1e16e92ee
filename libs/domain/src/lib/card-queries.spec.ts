import fc from 'fast-check';
import {
  CARD_IDENTIFIERS,
  CardIdentifier,
  parseSearchText,
  selectIdentifier,
  unboundedOrder,
} from './card-queries';

describe('selectIdentifier', () => {
  it.each([
    [
      { cardId: 'c', vendorId: 'v', variantId: 'x', vendorSkuId: 's' },
      { by: 'variantId', value: 'x' },
    ],
    [
      { cardId: 'c', vendorSkuId: 's' },
      { by: 'vendorSkuId', value: 's' },
    ],
    [
      { vendorId: 'v', cardId: 'c' },
      { by: 'cardId', value: 'c' },
    ],
    [
      { imagedbId: 'i', opensetId: 'o', vendorId: 'v' },
      { by: 'vendorId', value: 'v' },
    ],
    [
      { imagedbId: 'i', opensetId: 'o' },
      { by: 'opensetId', value: 'o' },
    ],
    [
      { imagedbId: 'i', variantId: '' },
      { by: 'imagedbId', value: 'i' },
    ],
    [{}, undefined],
    [{ cardId: '' }, undefined],
  ] as [Partial<Record<CardIdentifier, string>>, unknown][])('%j names %j', (given, expected) => {
    expect(selectIdentifier((by) => given[by])).toEqual(expected);
  });

  it('reads every identifier, so a losing one is still validated', () => {
    const asked: CardIdentifier[] = [];
    selectIdentifier((by) => {
      asked.push(by);
      return 'x';
    });
    expect(asked).toEqual([...CARD_IDENTIFIERS]);
  });

  it('always picks the present identifier that comes first in the table', () => {
    fc.assert(
      fc.property(fc.subarray([...CARD_IDENTIFIERS]), (present) => {
        const chosen = selectIdentifier((by) => (present.includes(by) ? `v-${by}` : undefined));
        const first = CARD_IDENTIFIERS.find((id) => present.includes(id));
        expect(chosen).toEqual(first === undefined ? undefined : { by: first, value: `v-${first}` });
      }),
    );
  });
});

describe('parseSearchText', () => {
  it.each(['bolt', 'Owl!', '9th', 'ドラゴン', 'a bcd'])(
    'takes %j: three letters or digits in a row',
    (text) => {
      expect(parseSearchText(text, 'q')).toBe(text);
    },
  );
  it.each(['a', 'ab', 'a b c', '%%%', '1-2-3'])('refuses %j naming q', (text) => {
    expect(() => parseSearchText(text, 'q')).toThrow(expect.objectContaining({ parameter: 'q' }));
  });
});

describe('unboundedOrder', () => {
  const game = { by: 'browse', gameId: 'g' } as const;
  const nm = { includeNullPrices: false, conditions: ['Near Mint' as const] };
  it("allows a sort or a floor on the variants' scope alone, anywhere", () => {
    expect(
      unboundedOrder(game, { includeNullPrices: true, graded: 'only' }, { by: 'price' }),
    ).toBeUndefined();
  });
  it('names the sort, then the floor, of a whole game with a filter on variant kinds or updates', () => {
    expect(unboundedOrder(game, nm, { by: 'price', minPrice: 1 })).toBe('order');
    expect(unboundedOrder(game, nm, { minPrice: 1 })).toBe('minPrice');
    expect(unboundedOrder({ ...game, q: 'the' }, nm, { by: 'price' })).toBe('order');
    expect(unboundedOrder(game, { includeNullPrices: false, updatedAfter: 1 }, { by: '7d' })).toBe('order');
    expect(unboundedOrder(game, nm, {})).toBeUndefined();
  });
  it('allows them within a set, a card number or a lookup', () => {
    expect(unboundedOrder({ ...game, setId: 's' }, nm, { by: 'price' })).toBeUndefined();
    expect(unboundedOrder({ ...game, number: '7' }, nm, { by: 'price' })).toBeUndefined();
    expect(unboundedOrder({ by: 'cardId', value: 'c' }, nm, { by: 'price' })).toBeUndefined();
  });
});
