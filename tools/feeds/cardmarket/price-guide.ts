/**
 * Cardmarket's daily price guide of one game (`productCatalog/priceGuide/price_guide_<idGame>.json`
 * on downloads.s3.cardmarket.com): `{version, createdAt, priceGuides: [{idProduct, idCategory,
 * avg, low, trend, avg1, avg7, avg30, avg-foil, low-foil, trend-foil, …}]}`, EUR. A game whose
 * cards have a holo finish names those keys `-holo` (Pokémon). tools/feeds/fixtures/cardmarket
 * says where the format is documented.
 */

export interface CardmarketGuide {
  /** `YYYY-MM-DD` of `createdAt`, in UTC. */
  readonly day: string;
  readonly rows: CardmarketPrice[];
  /** The rows of the wrong shape, each as the value that broke it (`trend: "1,5"`). */
  readonly rejected: string[];
}

export interface CardmarketPrice {
  readonly idProduct: number;
  /** The trend price of the plain copy, EUR; null when the guide has none. */
  readonly trend: number | null;
  /** The trend price of the foil (or holo) copy, EUR; null when the guide has none. */
  readonly trendFoil: number | null;
}

/** Above any card ever sold: a larger price is a broken file's. */
const MAX_EUR = 10_000_000;

export class CardmarketFormatError extends Error {
  constructor(what: string, why: string) {
    super(`${what}: ${why}`);
    this.name = 'CardmarketFormatError';
  }
}

/** Reads a parsed price guide: the envelope must be whole; a row of the wrong shape is counted. */
export function readPriceGuide(what: string, document: unknown, today = Date.now()): CardmarketGuide {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new CardmarketFormatError(what, 'not a JSON object');
  const { createdAt, priceGuides } = document as Record<string, unknown>;
  const created = typeof createdAt === 'string' && createdAt.length <= 40 ? Date.parse(createdAt) : NaN;
  if (!Number.isFinite(created) || created > today + 86_400_000 || created < Date.UTC(1993, 0, 1))
    throw new CardmarketFormatError(what, 'createdAt is not a date up to today');
  if (!Array.isArray(priceGuides)) throw new CardmarketFormatError(what, 'priceGuides is not an array');
  const rows: CardmarketPrice[] = [];
  const rejected: string[] = [];
  for (const r of priceGuides) {
    const row = typeof r === 'object' && r !== null ? (r as Record<string, unknown>) : {};
    const idProduct = row['idProduct'];
    const trend = euros(row['trend']);
    const trendFoil = euros(row['trend-foil'] ?? row['trend-holo']);
    const badId = typeof idProduct !== 'number' || !Number.isSafeInteger(idProduct) || idProduct <= 0;
    if (badId || trend === undefined || trendFoil === undefined) {
      const field = badId ? 'idProduct' : trend === undefined ? 'trend' : 'trend-foil';
      const value = field === 'trend-foil' ? (row['trend-foil'] ?? row['trend-holo']) : row[field];
      rejected.push(`${field}: ${value === undefined ? 'absent' : JSON.stringify(value)}`);
      continue;
    }
    rows.push({ idProduct: idProduct as number, trend, trendFoil });
  }
  return { day: new Date(created).toISOString().slice(0, 10), rows, rejected };
}

/** A price in euros: null for none (absent, null or 0), undefined for a value of the wrong kind. */
function euros(v: unknown): number | null | undefined {
  if (v === undefined || v === null || v === 0) return null;
  return typeof v === 'number' && v > 0 && v <= MAX_EUR ? v : undefined;
}
