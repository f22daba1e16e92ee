/**
 * The `Range` and `If-Range` of a download (RFC 9110 §14.2, §13.1.5), for a file of `size` bytes
 * whose validators are a strong entity tag and a last-modified date.
 * - `full`: no range applies; the whole file with 200. That is also the answer to a header the
 *   server may ignore: another unit, a malformed or invalid set, several ranges (one range only:
 *   a resuming client asks for one, and multipart answers are not worth their cost), an `If-Range`
 *   that does not match (the file changed: the client must start over), or no `Range` at all.
 * - `partial`: bytes `start`..`end` inclusive, with 206 and `Content-Range`.
 * - `unsatisfiable`: one well-formed range that starts at or past the end; 416.
 */
export type ByteRange =
  | { readonly kind: 'full' }
  | { readonly kind: 'partial'; readonly start: number; readonly end: number }
  | { readonly kind: 'unsatisfiable' };

export interface RangeValidators {
  /** The strong entity tag, quoted. */
  readonly etag: string;
  /** The Last-Modified value, as an IMF-fixdate. */
  readonly lastModified: string;
}

const FULL: ByteRange = { kind: 'full' };
/** A header longer than this is not one range: ignored. */
const MAX_RANGE_HEADER = 200;
const ONE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

export function byteRange(
  range: string | undefined,
  ifRange: string | undefined,
  size: number,
  validators: RangeValidators,
): ByteRange {
  if (range === undefined || range.length > MAX_RANGE_HEADER) return FULL;
  if (ifRange !== undefined && !ifRangeMatches(ifRange.trim(), validators)) return FULL;
  const m = ONE_RANGE.exec(range);
  if (!m) return FULL;
  const [, first, last] = m as unknown as [string, string, string];
  if (first === '') {
    // A suffix: the last `last` bytes, or all of a shorter file.
    if (last === '') return FULL;
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return FULL; // an invalid range-spec: ignored, as RFC 9110 allows
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/**
 * If-Range holds a strong entity tag compared strongly (a weak one never matches) or a date
 * that must equal Last-Modified exactly; anything else does not match.
 */
function ifRangeMatches(ifRange: string, { etag, lastModified }: RangeValidators): boolean {
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && date === Date.parse(lastModified);
}
