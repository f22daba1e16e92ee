/** The content codings a response may go out in. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * Longest Accept-Encoding read. Real clients send a few dozen characters; past this the rest is
 * ignored, so a hostile header costs a bounded, linear scan.
 */
const MAX_ACCEPT_ENCODING = 512;

/**
 * The coding to send, from an Accept-Encoding header (RFC 9110 §12.5.3): the acceptable one with
 * the highest q among br and gzip, br on a tie (smaller), identity when neither is acceptable or
 * the header is absent. `*` stands for any coding the header does not name. Malformed members are
 * skipped. Identity is always an answer, even when a client refuses it: a 406 would help no one.
 */
export function negotiateCoding(header: string | string[] | undefined): ContentCoding {
  if (header === undefined) return 'identity';
  const text = (Array.isArray(header) ? header.join(',') : header).slice(0, MAX_ACCEPT_ENCODING);
  let br: number | undefined;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const member of text.split(',')) {
    const [name, ...params] = member.split(';');
    const coding = name!.trim().toLowerCase();
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() !== 'q' || value === undefined) continue;
      const parsed = parseQValue(value.trim());
      q = parsed ?? 0;
    }
    if (coding === 'br') br = q;
    else if (coding === 'gzip' || coding === 'x-gzip') gzip = q;
    else if (coding === '*') any = q;
  }
  const brQ = br ?? any ?? 0;
  const gzipQ = gzip ?? any ?? 0;
  if (brQ <= 0 && gzipQ <= 0) return 'identity';
  return brQ >= gzipQ ? 'br' : 'gzip';
}

/** A qvalue (`0`, `0.5`, `1.000`): a number in [0, 1] with at most three decimals, else null. */
function parseQValue(text: string): number | null {
  if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text)) return null;
  return Number(text);
}
