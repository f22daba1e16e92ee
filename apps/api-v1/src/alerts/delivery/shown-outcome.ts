import type { UrlRefusal } from './address-policy';
import type { AttemptError } from './webhook-sender';

/**
 * What a subscriber is told of a refused URL or a failed attempt. Anything that depends on the
 * network (whether a name resolves, to what kind of address, whether a port refuses, drops or
 * never answers, a TLS failure) is collapsed into one outcome, so that a key cannot map internal
 * names, addresses and ports through the API's refusals or its deliveries log. What depends only
 * on the text of the URL keeps its own rule, and a receiver's own answer its status.
 */

/** The rule of every refusal about where a URL's host is or resolves to. */
export const DESTINATION_REFUSED = 'destination_refused';
/** Every attempt that ended without an HTTP status from the receiver. */
export const NO_RESPONSE = 'no_response';

const DESTINATION_MESSAGE =
  'url host must resolve to public internet addresses only; loopback, private, link-local, ' +
  'shared (CGNAT), multicast and reserved addresses are refused';

const TEXT_RULES: ReadonlySet<string> = new Set(['url_syntax', 'https_required', 'credentials', 'port']);

/** A URL refusal as the API states it. */
export function shownRefusal(refusal: UrlRefusal): { rule: string; message: string } {
  return TEXT_RULES.has(refusal.rule) ? refusal : { rule: DESTINATION_REFUSED, message: DESTINATION_MESSAGE };
}

/**
 * An attempt's error as its delivery record keeps it: `destination_refused` (nothing sent: the
 * URL or its addresses were refused now), `no_response` (no status came: no connection, reset,
 * TLS, or no answer in time), `redirect_not_followed`, `http_<status>`; `internal_error` for a
 * failure of the sender's own (a secret it cannot open).
 */
export function shownAttemptError(error: AttemptError | 'internal_error' | null): string | null {
  if (error === null) return null;
  if (error === 'internal_error' || error === 'redirect_not_followed' || error.startsWith('http_'))
    return error;
  if (
    error === 'url_syntax' ||
    error === 'https_required' ||
    error === 'credentials' ||
    error === 'port' ||
    error === 'private_address' ||
    error === 'unresolvable'
  )
    return DESTINATION_REFUSED;
  return NO_RESPONSE;
}
