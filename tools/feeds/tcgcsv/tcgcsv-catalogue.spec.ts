import { RunCounts } from '../run-counts';
import { TcgcsvCatalogue } from './tcgcsv-catalogue';

const group = {
  groupId: 3170,
  name: 'SWSH12: Silver Tempest',
  abbreviation: 'SWSH12',
  publishedOn: '2022-11-11',
};
const lugia = {
  productId: 451396,
  name: 'Lugia VSTAR',
  number: '139/195',
  rarity: 'Ultra Rare',
  sealed: false,
};

describe('TcgcsvCatalogue', () => {
  it('prices a printing once when two names of it are one slug, and refuses a name without letters', () => {
    const counts = new RunCounts(undefined);
    const write = new TcgcsvCatalogue('pokemon', [], []).group(
      group,
      [lugia],
      [
        { productId: 451396, subTypeName: 'Holofoil', marketPrice: 12.34 },
        { productId: 451396, subTypeName: 'holofoil', marketPrice: 99 },
        { productId: 451396, subTypeName: '***', marketPrice: 1 },
      ],
      counts,
    );
    expect(write.observations).toEqual([expect.objectContaining({ price: 1234 })]);
    expect(new Set(write.variants.map((v) => v.uuid)).size).toBe(5);
    expect(counts.reasons).toEqual({
      'a second price of the same product and printing': 1,
      'a printing name without a letter or digit': 1,
    });
  });

  it('keeps a stored card by its product id, in its own set, whatever the group is called', () => {
    const set = {
      uuid: 'b3c5a1f2-0000-5000-8000-000000000001',
      id: 'pokemon-silver-tempest',
      code: 'SIT',
      name: 'Silver Tempest',
      releaseDate: null,
    };
    const stored = {
      uuid: 'b3c5a1f2-0000-5000-8000-000000000002',
      id: 'pokemon-silver-tempest-lugia-vstar-ultra-rare',
      setUuid: set.uuid,
      name: 'Lugia VSTAR',
      number: '139/195',
      rarity: 'Ultra Rare',
      details: null,
      vendorId: '451396',
      opensetId: null,
      imagedbId: null,
      sealed: false,
    };
    const counts = new RunCounts(undefined);
    const write = new TcgcsvCatalogue('pokemon', [set], [stored]).group(
      group,
      [lugia, { productId: 451397, name: 'Lugia V', number: '138/195', rarity: 'Ultra Rare', sealed: false }],
      [],
      counts,
    );
    // The group is the set most of its known products are in: the new card joins it.
    expect(write.cards.map((c) => [c.id, c.setId])).toEqual([
      ['pokemon-silver-tempest-lugia-v-ultra-rare', 'pokemon-silver-tempest'],
    ]);
    expect([counts.matched, counts.created]).toEqual([1, 1]);
  });
});
