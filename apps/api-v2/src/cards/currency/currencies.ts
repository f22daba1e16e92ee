/**
 * What `currency=` accepts: the euro and the currencies the ECB publishes a daily reference rate
 * for (its daily file, tools/feeds/fixtures/ecb/eurofxref-daily.xml). A code the ECB stopped
 * publishing (HRK, RUB) is not offered: no current price could be converted with it.
 */
export const CONVERTIBLE_CURRENCIES = [
  'EUR',
  'USD',
  'JPY',
  'BGN',
  'CZK',
  'DKK',
  'GBP',
  'HUF',
  'PLN',
  'RON',
  'SEK',
  'CHF',
  'ISK',
  'NOK',
  'TRY',
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'HKD',
  'IDR',
  'ILS',
  'INR',
  'KRW',
  'MXN',
  'MYR',
  'NZD',
  'PHP',
  'SGD',
  'THB',
  'ZAR',
] as const;
export type ConvertibleCurrency = (typeof CONVERTIBLE_CURRENCIES)[number];

/**
 * How far back a rate may be from the day it converts: the ECB publishes none on weekends and
 * TARGET holidays (at most four days in a row: Good Friday to Easter Monday), so a week covers
 * every closure and a stale feed shows as "no rate" within days rather than converting with a
 * month-old rate.
 */
export const MAX_RATE_AGE_DAYS = 7;

export function parseConvertibleCurrency(text: string): ConvertibleCurrency | undefined {
  const code = text.trim().toUpperCase();
  return (CONVERTIBLE_CURRENCIES as readonly string[]).includes(code)
    ? (code as ConvertibleCurrency)
    : undefined;
}
