/** A parsed query string: each parameter a value, or its values when repeated. */
export type QueryParams = Readonly<Record<string, unknown>>;

/**
 * One parameter's text, trimmed; undefined when absent or blank. A repeated parameter counts
 * as its values comma-joined, so `?a=1&a=2` reads like `?a=1,2` (the spec's lists are comma-separated).
 */
export function queryValue(query: QueryParams, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  const text = (Array.isArray(v) ? v.join(',') : String(v)).trim();
  return text === '' ? undefined : text;
}

/** A comma-separated parameter's items, trimmed, empty ones dropped; undefined when absent. */
export function queryList(query: QueryParams, name: string): string[] | undefined {
  return queryValue(query, name)
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}
