/**
 * TCGCSV's documents (tcgcsv.com: TCGplayer's catalogue and prices, one day's dump): every answer
 * is `{success, errors, results}` (`totalItems` too, except on prices). The readers check each
 * document's envelope and each row's fields, and return the rows they can use and, for the rest,
 * why not: a row of the wrong shape is reported, never guessed at. tools/feeds/fixtures/tcgcsv
 * says where the format is documented.
 */

export interface TcgcsvCategory {
  readonly categoryId: number;
  readonly name: string;
  readonly displayName: string;
}

export interface TcgcsvGroup {
  readonly groupId: number;
  readonly name: string;
  readonly abbreviation: string | null;
  /** `YYYY-MM-DD` of `publishedOn`, when it is a date. */
  readonly publishedOn: string | null;
}

export interface TcgcsvProduct {
  readonly productId: number;
  readonly name: string;
  /** `extendedData` Number, when present. */
  readonly number: string | null;
  /** `extendedData` Rarity, when present. */
  readonly rarity: string | null;
  /** TCGCSV's rule: a product with neither a Number nor a Rarity is not a card (sealed product). */
  readonly sealed: boolean;
}

export interface TcgcsvPrice {
  readonly productId: number;
  /** The printing, as TCGplayer names it (`Normal`, `Holofoil`, `1st Edition Rainbow Foil`). */
  readonly subTypeName: string;
  /** USD; null when TCGplayer has no recent sale. */
  readonly marketPrice: number | null;
}

export interface Rows<T> {
  readonly rows: T[];
  /** The first hundred rows refused, with why. */
  readonly rejected: { reason: string; row: Record<string, unknown> }[];
  /** Every row refused. */
  readonly rejectedCount: number;
}

/** Caps on what a document may hold: a name longer than these is not one of TCGplayer's. */
const MAX_NAME = 300;
const MAX_SHORT = 64;
/** Above any card ever sold: a larger price is a broken feed's. */
const MAX_USD = 10_000_000;

export class TcgcsvFormatError extends Error {
  constructor(what: string, why: string) {
    super(`${what}: ${why}`);
    this.name = 'TcgcsvFormatError';
  }
}

/** The `results` of a TCGCSV answer; a failed answer (`success` false) or another shape throws. */
export function resultsOf(what: string, document: unknown): unknown[] {
  if (!isObject(document)) throw new TcgcsvFormatError(what, 'not a JSON object');
  if (document['success'] !== true) {
    const errors = Array.isArray(document['errors']) ? document['errors'].slice(0, 3) : [];
    throw new TcgcsvFormatError(
      what,
      `success is not true (errors: ${JSON.stringify(errors).slice(0, 300)})`,
    );
  }
  if (!Array.isArray(document['results'])) throw new TcgcsvFormatError(what, 'results is not an array');
  return document['results'];
}

export function readCategories(document: unknown): Rows<TcgcsvCategory> {
  return readRows('categories', document, (r) => {
    const categoryId = positiveInt(r['categoryId']);
    const name = text(r['name'], MAX_NAME);
    if (categoryId === undefined || name === undefined) return 'categoryId or name missing';
    return { categoryId, name, displayName: text(r['displayName'], MAX_NAME) ?? name };
  });
}

export function readGroups(what: string, document: unknown): Rows<TcgcsvGroup> {
  return readRows(what, document, (r) => {
    const groupId = positiveInt(r['groupId']);
    const name = text(r['name'], MAX_NAME);
    if (groupId === undefined || name === undefined) return 'groupId or name missing';
    const published = typeof r['publishedOn'] === 'string' ? r['publishedOn'].slice(0, 10) : '';
    // A real calendar date only: `2024-02-30` would fail the set's write, not be one.
    const real =
      /^\d{4}-\d{2}-\d{2}$/.test(published) &&
      new Date(`${published}T00:00:00Z`).toISOString().startsWith(published);
    return {
      groupId,
      name,
      abbreviation: text(r['abbreviation'], MAX_SHORT) ?? null,
      publishedOn: real ? published : null,
    };
  });
}

export function readProducts(what: string, document: unknown): Rows<TcgcsvProduct> {
  return readRows(what, document, (r) => {
    const productId = positiveInt(r['productId']);
    const name = text(r['name'], MAX_NAME);
    if (productId === undefined || name === undefined) return 'productId or name missing';
    const extended = Array.isArray(r['extendedData']) ? r['extendedData'] : [];
    const field = (key: string): string | null => {
      for (const e of extended)
        if (isObject(e) && e['name'] === key) return text(e['value'], MAX_SHORT) ?? null;
      return null;
    };
    const number = field('Number');
    const rarity = field('Rarity');
    return { productId, name, number, rarity, sealed: number === null && rarity === null };
  });
}

export function readPrices(what: string, document: unknown): Rows<TcgcsvPrice> {
  return readRows(what, document, (r) => {
    const productId = positiveInt(r['productId']);
    const subTypeName = text(r['subTypeName'], MAX_SHORT);
    if (productId === undefined || subTypeName === undefined) return 'productId or subTypeName missing';
    const market = r['marketPrice'];
    if (market === null || market === undefined) return { productId, subTypeName, marketPrice: null };
    if (typeof market !== 'number' || !(market >= 0 && market <= MAX_USD)) return 'marketPrice out of range';
    return { productId, subTypeName, marketPrice: market };
  });
}

function readRows<T>(
  what: string,
  document: unknown,
  read: (row: Record<string, unknown>) => T | string,
): Rows<T> {
  const rows: T[] = [];
  const rejected: Rows<T>['rejected'] = [];
  let rejectedBeyond = 0;
  for (const r of resultsOf(what, document)) {
    if (!isObject(r)) {
      if (rejected.length < 100) rejected.push({ reason: 'not an object', row: {} });
      else rejectedBeyond++;
      continue;
    }
    const out = read(r);
    // At most the first hundred are kept for the report; the rest are counted.
    if (typeof out === 'string') {
      if (rejected.length < 100) rejected.push({ reason: out, row: keyOf(r) });
      else rejectedBeyond++;
    } else rows.push(out);
  }
  return { rows, rejected, rejectedCount: rejected.length + rejectedBeyond };
}

/** What identifies a rejected row in the operator's list, without copying the whole row. */
function keyOf(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['categoryId', 'groupId', 'productId', 'subTypeName', 'name'])
    if (typeof r[k] === 'string' || typeof r[k] === 'number') out[k] = String(r[k]).slice(0, 100);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}

/** A trimmed, non-empty string of at most `max` characters without control characters. */
function text(v: unknown, max: number): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  // eslint-disable-next-line no-control-regex
  if (t === '' || t.length > max || /[\u0000-\u001f\u007f]/.test(t)) return undefined;
  return t;
}
