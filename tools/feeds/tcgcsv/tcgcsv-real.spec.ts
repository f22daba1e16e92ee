import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunCounts } from '../run-counts';
import { TcgcsvCatalogue } from './tcgcsv-catalogue';
import { readPrices, readProducts } from './tcgcsv-documents';

/** Real TCGplayer records as TCGCSV serves them (fixtures/tcgcsv-real/README.md: provenance). */
const REAL = join(__dirname, '..', 'fixtures', 'tcgcsv-real', '68', '23462');
const document = (name: string): unknown => JSON.parse(readFileSync(join(REAL, name), 'utf8'));

describe('TCGCSV readers on real records (One Piece Card Game, group 23462 "Two Legends")', () => {
  const products = readProducts('68/23462/products', document('products'));
  const prices = readPrices('68/23462/prices', document('prices'));

  it('reads every product record: number and rarity from extendedData, the booster pack sealed', () => {
    expect(products.rejectedCount).toBe(0);
    expect(products.rows.map((p) => [p.productId, p.name, p.number, p.rarity, p.sealed])).toEqual([
      [542502, 'Two Legends - Booster Pack', null, null, true],
      [558019, 'Portgas.D.Ace (SP)', 'OP02-013', 'SR', false],
      [558021, 'Tony Tony.Chopper (001)', 'OP08-001', 'L', false],
      [558022, 'Tony Tony.Chopper (001) (Parallel)', 'OP08-001', 'L', false],
      [558026, 'Kuromarimo', 'OP08-004', 'C', false],
      [558044, 'Drum Kingdom', 'OP08-020', 'C', false],
      [558063, 'Electrical Luna', 'OP08-036', 'R', false],
      [558162, 'Silvers Rayleigh (Parallel) (Manga)', 'OP08-118', 'SEC', false],
    ]);
  });

  it('reads every price record (these carry no directLowPrice): printing and market price as published', () => {
    expect(prices.rejectedCount).toBe(0);
    expect(prices.rows).toHaveLength(10);
    expect(prices.rows.find((p) => p.productId === 558019)).toEqual({
      productId: 558019,
      subTypeName: 'Foil',
      marketPrice: 77.14,
    });
  });

  it('maps the group: a card per product (a parallel art is a card of its own), prices on NM, the rest reported', () => {
    const counts = new RunCounts(undefined);
    const catalogue = new TcgcsvCatalogue('one-piece', [], []);
    const write = catalogue.group(
      { groupId: 23462, name: 'Two Legends', abbreviation: 'OP08', publishedOn: '2024-09-13' },
      products.rows,
      prices.rows,
      counts,
    );
    expect(write.cards).toHaveLength(8);
    expect(write.cards.filter((c) => c.sealed).map((c) => [c.name, c.rarity])).toEqual([
      ['Two Legends - Booster Pack', 'Sealed'],
    ]);
    // Same number, two products: the base leader and its parallel are two cards, never merged.
    expect(new Set(write.cards.filter((c) => c.number === 'OP08-001').map((c) => c.id)).size).toBe(2);
    const ace = write.cards.find((c) => c.vendorId === '558019')!;
    expect(write.observations).toContainEqual({
      variantUuid: expect.any(String),
      cardUuid: ace.uuid,
      price: 7714,
    });
    // 558023, 558024 and 558025 are priced but not among the excerpt's products.
    expect(counts.reasons).toEqual({ 'a price of a product not in the catalogue': 3 });
    expect(counts.samples['a price of a product not in the catalogue']).toEqual([
      '558023',
      '558024',
      '558025',
    ]);
    expect([counts.rowsRead, counts.matched, counts.created, write.observations.length]).toEqual([
      18, 7, 8, 7,
    ]);
  });
});
