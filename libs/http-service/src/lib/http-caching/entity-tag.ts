/**
 * Longest If-None-Match read: a client revalidating one cached answer sends one tag; a few dozen
 * cover any honest client. Past it the header is treated as matching nothing (a full answer).
 */
const MAX_IF_NONE_MATCH = 2048;

/**
 * Whether an If-None-Match header matches a response's entity tag under the weak comparison RFC
 * 9110 §13.1.2 prescribes (`W/` ignored on both sides). `opaque` is the tag without `W/` and
 * quotes. A tag the service gave a compressed form of the same answer (`"<opaque>-br"`,
 * `"<opaque>-gzip"`) matches too: those bytes decode to the same answer. Linear in the header.
 */
export function ifNoneMatchHits(header: string | string[] | undefined, opaque: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.length > MAX_IF_NONE_MATCH) return false;
  if (text.trim() === '*') return true;
  for (const member of text.split(',')) {
    let tag = member.trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag.length < 2 || tag[0] !== '"' || tag[tag.length - 1] !== '"') continue;
    const value = tag.slice(1, -1);
    if (value === opaque || value === `${opaque}-br` || value === `${opaque}-gzip`) return true;
  }
  return false;
}

/** The ETag header of an answer with opaque tag `opaque`, as sent in `coding`. */
export function entityTag(opaque: string, weak: boolean, coding: 'br' | 'gzip' | 'identity'): string {
  // A weak tag already says "same meaning, maybe other bytes": one tag for every coding. A strong
  // one names exact bytes, so each coding gets its own (RFC 9110 §8.8.3).
  if (weak) return `W/"${opaque}"`;
  return coding === 'identity' ? `"${opaque}"` : `"${opaque}-${coding}"`;
}
