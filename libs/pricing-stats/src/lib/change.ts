/**
 * The one percent-change rule (docs/spec/decisions.md, "Statistics"): `(current - reference) /
 * reference * 100`, unrounded. Used for every window's `change` of a series and for a game's
 * market-index change alike, so both follow the same formula and the same null rules.
 *
 * Null when either value is null (nothing to compare: no current value, or no reference to
 * measure from) or when the reference is 0 (no percent of nothing). A current value of 0 against
 * a positive reference is -100.
 */
export function percentChange(current: number | null, reference: number | null): number | null {
  if (current === null || reference === null || reference === 0) return null;
  return ((current - reference) / reference) * 100;
}
