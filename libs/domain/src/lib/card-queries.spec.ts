import fc from 'fast-check';
import { CARD_IDENTIFIERS, CardIdentifier, selectIdentifier } from './card-queries';

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
