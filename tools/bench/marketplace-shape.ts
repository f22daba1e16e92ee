import { slugify } from '@tcg/domain';

/**
 * The shape of TCGplayer's whole marketplace as TCGCSV's archive of 2025-10-20 holds it (issue 36):
 * 4,316 price files (one per group) in 85 categories, 485,626 price rows of which 403,783 carry a
 * market price. The four largest categories' row counts are the archive's (Magic 150k, Yu-Gi-Oh!
 * 58k, Pokémon 43k, Flesh and Blood 14k); the other 81 share the rest by a Zipf(1) rank, which is
 * how a long tail of small games looks, not a count read from the archive.
 */
export const ARCHIVE_PRICE_ROWS = 485_626;
export const ARCHIVE_MARKET_PRICES = 403_783;
export const ARCHIVE_CATEGORIES = 85;
export const ARCHIVE_GROUPS = 4_316;

export interface BenchCategory {
  readonly categoryId: number;
  readonly name: string;
  readonly slug: string;
  /** The printings (`subTypeName`) of every product: a price row each. */
  readonly printings: readonly string[];
  /** Price rows a day, at the requested scale. */
  readonly rows: number;
  readonly products: number;
  /** Products per group: the archive's 112.5 price rows per file, over the printings. */
  readonly productsPerGroup: number;
}

const KNOWN: readonly { id: number; name: string; rows: number; printings: readonly string[] }[] = [
  { id: 1, name: 'Magic', rows: 150_000, printings: ['Normal', 'Foil'] },
  { id: 2, name: 'YuGiOh', rows: 58_000, printings: ['1st Edition', 'Unlimited'] },
  { id: 3, name: 'Pokemon', rows: 43_000, printings: ['Normal', 'Holofoil', 'Reverse Holofoil'] },
  { id: 62, name: 'Flesh & Blood TCG', rows: 14_000, printings: ['Normal', 'Rainbow Foil', 'Cold Foil'] },
];

/** The categories of one archive day, every count multiplied by `scale` (at least one product each). */
export function marketplaceShape(scale = 1): BenchCategory[] {
  const rowsPerFile = ARCHIVE_PRICE_ROWS / ARCHIVE_GROUPS;
  const known = KNOWN.reduce((a, k) => a + k.rows, 0);
  const tail = ARCHIVE_CATEGORIES - KNOWN.length;
  const weights = Array.from({ length: tail }, (_, k) => 1 / (k + 1));
  const total = weights.reduce((a, w) => a + w, 0);
  const categories = [
    ...KNOWN,
    ...weights.map((w, k) => ({
      id: 100 + k,
      name: `Bench Game ${k + 1}`,
      rows: ((ARCHIVE_PRICE_ROWS - known) * w) / total,
      printings: k % 3 === 0 ? ['Normal'] : ['Normal', 'Foil'],
    })),
  ];
  return categories.map((c) => {
    const products = Math.max(1, Math.round((c.rows * scale) / c.printings.length));
    return {
      categoryId: c.id,
      name: c.name,
      slug: slugify(c.name),
      printings: c.printings,
      rows: products * c.printings.length,
      products,
      productsPerGroup: Math.max(1, Math.round(rowsPerFile / c.printings.length)),
    };
  });
}
