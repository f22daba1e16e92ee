import { abbreviate, minorUnitsPerMajor, parseDecimalAmount, parseRegion } from '@tcg/domain';

/** One record of a price file, as read from NDJSON or CSV (all values as the file gave them). */
export type RawRecord = Record<string, unknown>;

export interface ParsedRow {
  /** Variant UUID or slug, or undefined when the row names a vendor SKU instead. */
  readonly variantRef?: string;
  readonly vendorSku?: string;
  /** The region whose observations store this row (`US` is stored as `NA`). */
  readonly region: string;
  readonly t: number;
  readonly price: number;
}

export type RowResult = { ok: true; row: ParsedRow } | { ok: false; reason: string };

const EARLIEST = Date.UTC(1993, 0, 1) / 1000; // before the first trading card game was sold

/**
 * The longest value accepted per field, in characters: well above any real value (variant slugs
 * run to ~150), low enough that a rejected row's reason and the lookups it costs stay small.
 */
export const FIELD_MAX_LENGTH = {
  variant_id: 256,
  vendor_sku: 64,
  region: 8,
  time: 40,
  price: 32,
  currency: 8,
} as const;
type Field = keyof typeof FIELD_MAX_LENGTH;

/** The longest piece of a bad value quoted back in a rejection reason. */
const QUOTED_MAX = 40;

const text = (v: unknown): string | undefined =>
  v === undefined || v === null || v === ''
    ? undefined
    : typeof v === 'number'
      ? String(v)
      : typeof v === 'string'
        ? v.trim()
        : undefined;

const shown = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
const quoted = (v: string): string => abbreviate(v, QUOTED_MAX);

/**
 * Validates one record: exactly one of `variant_id` / `vendor_sku`, a known `region`, a `time`
 * (Unix seconds or ISO 8601) not in the future, a non-negative decimal `price` with at most the
 * currency's decimals, and a `currency` equal to the region's (prices are never converted).
 */
export function parseObservation(record: RawRecord, nowSeconds: number): RowResult {
  for (const field of Object.keys(FIELD_MAX_LENGTH) as Field[]) {
    const v = record[field];
    const length = typeof v === 'string' ? v.length : 0;
    if (length > FIELD_MAX_LENGTH[field])
      return fail(`${field} is ${length} characters long; at most ${FIELD_MAX_LENGTH[field]} are accepted`);
  }
  const variantRef = text(record['variant_id']);
  const vendorSku = text(record['vendor_sku']);
  if (!variantRef && !vendorSku) return fail('needs variant_id or vendor_sku');
  if (variantRef && vendorSku) return fail('give only one of variant_id and vendor_sku');

  const regionText = text(record['region']);
  if (!regionText) return fail('region is missing');
  const region = parseRegion(regionText);
  if (!region)
    return fail(
      `unknown region '${quoted(regionText)}' (a market code NA, EU, UK, JP, OCE, LATAM, OTHER or an ISO country code)`,
    );

  const t = parseTime(record['time']);
  if (t === undefined)
    return fail(`time '${quoted(shown(record['time']))}' is not Unix seconds or an ISO 8601 timestamp`);
  if (t < EARLIEST || t > nowSeconds + 3600) return fail(`time ${t} is outside 1993-01-01 .. now`);

  const currency = text(record['currency'])?.toUpperCase();
  if (!currency) return fail('currency is missing');
  if (currency !== region.currency)
    return fail(`currency ${currency} does not match region ${region.code} (${region.currency})`);

  const priceText = text(record['price']);
  const price =
    priceText === undefined ? undefined : parseDecimalAmount(priceText, minorUnitsPerMajor(currency));
  if (price === undefined)
    return fail(`price '${quoted(priceText ?? '')}' is not a non-negative decimal amount in ${currency}`);

  return { ok: true, row: { variantRef, vendorSku, region: region.storageRegion, t, price } };
}

function parseTime(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const s = v.trim();
  if (/^\d{1,12}$/.test(s)) return Number(s);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s))
    return undefined;
  const ms = Date.parse(/[T ]/.test(s) && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? `${s}Z` : s);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

function fail(reason: string): RowResult {
  return { ok: false, reason };
}
