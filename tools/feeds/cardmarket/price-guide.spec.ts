import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readPriceGuide } from './price-guide';

/** A cut of a price guide Cardmarket published: fixtures/real/README.md. */
const REAL = join(__dirname, '..', 'fixtures', 'real', 'cardmarket', 'price_guide_6-excerpt.json');

describe("Cardmarket's price guide, as published (Pokémon, 2025-11-26)", () => {
  it('reads each row’s trend and holo trend; a 0 or an absent holo trend is no price', async () => {
    const guide = readPriceGuide('price_guide_6.json', JSON.parse(await readFile(REAL, 'utf8')));
    expect(guide.day).toBe('2025-11-26');
    expect(guide.rejected).toEqual([]);
    expect(guide.rows).toEqual([
      { idProduct: 271439, trend: 160.77, trendFoil: 3.93 },
      { idProduct: 271440, trend: 2239.24, trendFoil: 178.28 },
      { idProduct: 271823, trend: 1019.93, trendFoil: 90.03 },
      { idProduct: 271886, trend: 1929.73, trendFoil: null },
      { idProduct: 271888, trend: 50000, trendFoil: null },
      { idProduct: 271892, trend: 3999.95, trendFoil: null },
    ]);
  });

  it('names the value of each row it refuses', () => {
    const guide = readPriceGuide('price_guide_1.json', {
      createdAt: '2025-11-26T02:47:06+0100',
      priceGuides: [
        { idProduct: '271439', trend: 1 },
        { idProduct: 2, trend: '1,50' },
        { idProduct: 3, trend: 1, 'trend-foil': -2 },
      ],
    });
    expect(guide.rows).toEqual([]);
    expect(guide.rejected).toEqual(['idProduct: "271439"', 'trend: "1,50"', 'trend-foil: -2']);
  });
});
