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

  describe('Flesh and Blood editions: a group `<set> Unlimited` is the packaged set', () => {
    // The packaged catalogue holds each card once, both editions as printings (its data gives the
    // two editions' printings one TCGplayer product id); TCGplayer also lists Unlimited printings
    // as products of their own in a group of that name.
    const wtr = {
      uuid: 'b3c5a1f2-0000-5000-8000-00000000f001',
      id: 'flesh-and-blood-welcome-to-rathe',
      code: 'WTR',
      name: 'Welcome to Rathe',
      releaseDate: '2019-10-11',
    };
    const rhinar = {
      uuid: 'b3c5a1f2-0000-5000-8000-00000000f002',
      id: 'flesh-and-blood-welcome-to-rathe-rhinar-reckless-rampage-token',
      setUuid: wtr.uuid,
      name: 'Rhinar, Reckless Rampage',
      number: 'WTR001',
      rarity: 'Token',
      details: null,
      vendorId: '225218',
      opensetId: null,
      imagedbId: null,
      sealed: false,
    };
    const unlimited = {
      groupId: 2220,
      name: 'Welcome to Rathe Unlimited',
      abbreviation: 'U-WTR',
      publishedOn: null,
    };
    const product = (productId: number, number: string, name = rhinar.name) => ({
      productId,
      name,
      number,
      rarity: 'Token',
      sealed: false,
    });

    it.each([['WTR001'], ['U-WTR001']])(
      'prices the packaged card from the Unlimited product (number %s)',
      (number) => {
        const counts = new RunCounts(undefined);
        const catalogue = new TcgcsvCatalogue('flesh-and-blood', [wtr], [rhinar]);
        const write = catalogue.group(
          unlimited,
          [product(242001, number)],
          [
            { productId: 242001, subTypeName: 'Unlimited Edition Normal', marketPrice: 1.5 },
            { productId: 225218, subTypeName: '1st Edition Normal', marketPrice: 4 },
          ],
          counts,
        );
        expect(write.cards).toEqual([]);
        expect(write.sets.size).toBe(0);
        expect(write.observations).toEqual([
          expect.objectContaining({ cardUuid: rhinar.uuid, price: 150 }),
          expect.objectContaining({ cardUuid: rhinar.uuid, price: 400 }),
        ]);
        expect(new Set(write.variants.map((v) => v.printing))).toEqual(
          new Set(['Unlimited Edition Normal', '1st Edition Normal']),
        );
        expect([counts.matched, counts.created, counts.unmatched, catalogue.editionsMerged]).toEqual([
          3, 0, 0, 1,
        ]);
      },
    );

    it('takes no other product for the card: another name, another number, or a group of another set', () => {
      const counts = new RunCounts(undefined);
      const catalogue = new TcgcsvCatalogue('flesh-and-blood', [wtr], [rhinar]);
      const write = catalogue.group(
        unlimited,
        [product(242002, 'WTR002'), product(242003, 'WTR001', 'Bone Head Barrier')],
        [],
        counts,
      );
      // New cards of an edition's group join the set it is an edition of.
      expect(write.cards.map((c) => c.setId)).toEqual([wtr.id, wtr.id]);
      catalogue.group(
        { groupId: 2221, name: 'Arcane Rising Unlimited', abbreviation: 'U-ARC', publishedOn: null },
        [product(242004, 'WTR001')],
        [],
        counts,
      );
      expect([counts.created, catalogue.editionsMerged]).toEqual([3, 0]);
    });
  });
});
