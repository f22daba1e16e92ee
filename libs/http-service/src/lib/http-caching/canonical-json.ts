/**
 * A value's JSON text with one spelling per meaning: object members sorted by name and undefined
 * ones left out, a Set's members sorted (their order means nothing), arrays in their order (it
 * may mean something: v2 regions are a priority). Two parsed requests with the same text are
 * answered alike.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Set)
    return [...value]
      .map((member) => canonicalJson(member))
      .sort()
      .map((text) => JSON.parse(text) as unknown);
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : canonical(item)));
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[name];
    if (member !== undefined) out[name] = canonical(member);
  }
  return out;
}
