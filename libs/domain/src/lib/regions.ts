import { countries } from 'countries-list';

/** Market codes and their main currency (docs/spec/decisions.md). */
export const MARKETS = {
  NA: 'USD',
  EU: 'EUR',
  UK: 'GBP',
  JP: 'JPY',
  OCE: 'AUD',
  LATAM: 'USD',
  OTHER: 'USD',
} as const;
export type MarketCode = keyof typeof MARKETS;
export const MARKET_CODES = Object.keys(MARKETS) as MarketCode[];

/** A requested region: a market code or an ISO 3166-1 alpha-2 country code, upper-cased. */
export interface Region {
  readonly code: string;
  readonly currency: string;
  /** The region whose observations serve this one (`US` reads `NA`). */
  readonly storageRegion: string;
}

const countryTable = countries as Record<string, { currency: readonly string[] }>;

/** Resolves a region code case-insensitively; undefined when it is neither a market nor a country. */
export function parseRegion(value: string): Region | undefined {
  const code = value.trim().toUpperCase();
  if (code in MARKETS) return { code, currency: MARKETS[code as MarketCode], storageRegion: code };
  const country = /^[A-Z]{2}$/.test(code) ? countryTable[code] : undefined;
  // A few territories list no currency; their market is still addressable, quoted in USD.
  if (country)
    return { code, currency: country.currency[0] ?? 'USD', storageRegion: code === 'US' ? 'NA' : code };
  return undefined;
}

/** Minor units per major unit for ISO 4217 currencies we quote; JPY and KRW have no minor unit. */
const ZERO_DECIMAL = new Set([
  'JPY',
  'KRW',
  'CLP',
  'VND',
  'ISK',
  'PYG',
  'UGX',
  'XAF',
  'XOF',
  'KMF',
  'GNF',
  'RWF',
]);
export function minorUnitsPerMajor(currency: string): number {
  return ZERO_DECIMAL.has(currency) ? 1 : 100;
}
