import {
  ARCHIVE_CATEGORIES,
  ARCHIVE_GROUPS,
  ARCHIVE_PRICE_ROWS,
  marketplaceShape,
} from './marketplace-shape';

describe('marketplaceShape', () => {
  it("has the archive's categories, rows, groups and largest games at scale 1", () => {
    const shape = marketplaceShape();
    expect(shape).toHaveLength(ARCHIVE_CATEGORIES);
    const rows = shape.reduce((a, c) => a + c.rows, 0);
    expect(Math.abs(rows - ARCHIVE_PRICE_ROWS) / ARCHIVE_PRICE_ROWS).toBeLessThan(0.01);
    const groups = shape.reduce((a, c) => a + Math.ceil(c.products / c.productsPerGroup), 0);
    expect(Math.abs(groups - ARCHIVE_GROUPS) / ARCHIVE_GROUPS).toBeLessThan(0.05);
    const magic = shape.find((c) => c.name === 'Magic')!;
    expect(magic.rows).toBe(150_000);
    expect(new Set(shape.map((c) => c.categoryId)).size).toBe(ARCHIVE_CATEGORIES);
    expect(new Set(shape.map((c) => c.slug)).size).toBe(ARCHIVE_CATEGORIES);
  });

  it('scales every count and keeps at least one product per category', () => {
    const small = marketplaceShape(0.001);
    expect(small).toHaveLength(ARCHIVE_CATEGORIES);
    expect(small.every((c) => c.products >= 1)).toBe(true);
    expect(small.find((c) => c.name === 'Magic')!.rows).toBe(150);
  });
});
