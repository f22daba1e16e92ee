/** Observations of one variant in one region, ascending: Unix seconds and minor units. */
export interface Series {
  readonly t: ArrayLike<number>;
  readonly p: ArrayLike<number>;
}

/** Index of the first observation after `since` (exclusive): the series is ascending. */
export function firstAfter(series: Series, since: number): number {
  let lo = 0;
  let hi = series.t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series.t[mid]! > since) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The members of a JSON object's text, without its braces: `{"a":1}` → `"a":1`. */
export function members(value: object): string {
  return JSON.stringify(value).slice(1, -1);
}

/**
 * `{"data":[…],"meta":{…}}`: a page of cards' JSON texts and its `meta`, in both versions' shape,
 * as the texts to send one after another. Not joined: a 200-card batch is megabytes, and encoding
 * the parts into one buffer skips the joined string's copy (the responder's `utf8Concat`).
 */
export function listJson(cards: readonly string[], meta: object): string[] {
  const parts = ['{"data":['];
  for (let i = 0; i < cards.length; i++) {
    if (i > 0) parts.push(',');
    parts.push(cards[i]!);
  }
  parts.push(`],"meta":${JSON.stringify(meta)}}`);
  return parts;
}
