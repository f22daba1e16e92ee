/** Card conditions of docs/spec/decisions.md: a long display name and a short code, matched case-insensitively. */
export const CONDITIONS = [
  { long: 'Near Mint', short: 'NM', slug: 'near-mint' },
  { long: 'Lightly Played', short: 'LP', slug: 'lightly-played' },
  { long: 'Moderately Played', short: 'MP', slug: 'moderately-played' },
  { long: 'Heavily Played', short: 'HP', slug: 'heavily-played' },
  { long: 'Damaged', short: 'DMG', slug: 'damaged' },
  { long: 'Sealed', short: 'S', slug: 'sealed' },
] as const;

export type Condition = (typeof CONDITIONS)[number]['long'];
export type ConditionShort = (typeof CONDITIONS)[number]['short'];

const byKey = new Map<string, Condition>();
for (const c of CONDITIONS) {
  byKey.set(c.long.toLowerCase(), c.long);
  byKey.set(c.short.toLowerCase(), c.long);
}

/** The long name for a short or long condition name (any case), or undefined when unknown. */
export function parseCondition(value: string): Condition | undefined {
  return byKey.get(value.trim().toLowerCase());
}

export function conditionSlug(condition: Condition): string {
  return CONDITIONS.find((c) => c.long === condition)!.slug;
}

export function conditionShort(condition: Condition): ConditionShort {
  return CONDITIONS.find((c) => c.long === condition)!.short;
}

/** Accepted spellings, for error messages. */
export const CONDITION_NAMES: readonly string[] = CONDITIONS.flatMap((c) => [c.long, c.short]);
