/**
 * Money is an integer count of minor units (cents for USD) everywhere inside the system; it turns
 * into a decimal number only at the response edge, through these functions. Rounding lives here.
 */
export type MinorUnits = number;

/** Rounds half away from zero to `decimals` places, without binary-float surprises on x.xx5. */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  const scaled = Math.abs(value) * factor;
  // Nudge by a relative epsilon so 1.005 (really 1.00499999…) rounds to 1.01 as a human expects.
  const rounded = Math.round(scaled * (1 + Number.EPSILON * 4)) / factor;
  return value < 0 ? -rounded : rounded;
}

/** Minor units → a decimal major amount for the response (e.g. 1234 cents → 12.34). */
export function toMajor(minor: MinorUnits, perMajor = 100): number {
  return perMajor === 1 ? minor : roundTo(minor / perMajor, 2);
}

/** A decimal major amount from a client or feed → integer minor units; rejects non-finite values. */
export function toMinor(major: number, perMajor = 100): MinorUnits {
  if (!Number.isFinite(major)) throw new RangeError(`not a finite amount: ${major}`);
  return Math.round(roundTo(major * perMajor, 6));
}

/** Money-valued statistics and change percentages: 2 decimals (docs/spec/decisions.md). */
export const roundMoney = (v: number | null): number | null => (v === null ? null : roundTo(v, 2));
export const roundPct = roundMoney;
/** cov, range_position, trend_slope: 4 decimals (docs/spec/decisions.md). */
export const roundRatio = (v: number | null): number | null => (v === null ? null : roundTo(v, 4));

/**
 * Parses a decimal amount written by a feed or a client ("12.34", "7", "0.5") into integer minor
 * units without going through a binary float. Returns undefined for anything else, including
 * more decimals than the currency has, signs, exponents and empty strings.
 */
export function parseDecimalAmount(text: string, perMajor = 100): MinorUnits | undefined {
  const m = /^(\d{1,12})(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const decimals = perMajor === 1 ? 0 : 2;
  const frac = m[2] ?? '';
  if (frac.length > decimals && !/^0*$/.test(frac.slice(decimals))) return undefined;
  const fracPart = decimals === 0 ? 0 : Number(frac.slice(0, decimals).padEnd(decimals, '0'));
  return Number(m[1]) * perMajor + fracPart;
}
