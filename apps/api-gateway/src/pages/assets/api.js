// @ts-check
// The explorer's calls to the API (same origin, the user's key in `x-api-key`), and its errors
// in words a person can act on.

/** Longest the page waits for one answer before saying so. */
const REQUEST_TIMEOUT_MS = 15_000;

export class ApiError extends Error {
  /**
   * @param {number} status HTTP status; 0 when no answer came.
   * @param {string} code the API's error code (`INVALID_API_KEY`, …), or the page's own.
   * @param {string} message
   * @param {number | null} retryAfter seconds, from `Retry-After`
   */
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/**
 * GET `path` from the API with `key`; the parsed JSON body of a 2xx, else an ApiError from the
 * body either version sends (v1 `{ error, code }`, v2 problem details). An abort by `signal`
 * rejects with the AbortError, for the caller to ignore.
 * @param {string} path
 * @param {string} key
 * @param {AbortSignal} signal
 * @returns {Promise<any>}
 */
export async function apiGet(path, key, signal) {
  /** @type {Response} */
  let res;
  try {
    res = await fetch(path, {
      headers: { 'x-api-key': key, accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiError(
      0,
      timedOut ? 'TIMEOUT' : 'NETWORK',
      timedOut
        ? `The API did not answer within ${REQUEST_TIMEOUT_MS / 1000} seconds.`
        : 'The API could not be reached. Is the gateway running?',
    );
  }
  const body = await res.json().catch(() => null);
  if (res.ok) return body;
  const retry = Number(res.headers.get('retry-after'));
  throw new ApiError(
    res.status,
    typeof body?.code === 'string' ? body.code : `HTTP_${res.status}`,
    String(body?.detail ?? body?.error ?? res.statusText ?? 'Request failed.'),
    Number.isFinite(retry) && retry >= 0 ? retry : null,
  );
}

/**
 * A title and a sentence for an error box.
 * @param {unknown} error
 * @returns {{ title: string; detail: string }}
 */
export function describeError(error) {
  if (!(error instanceof ApiError)) return { title: 'Something went wrong', detail: String(error) };
  const code = error.status ? ` (${error.status} ${error.code})` : '';
  if (error.status === 401)
    return {
      title: `The API key was refused${code}`,
      detail:
        error.code === 'MISSING_API_KEY'
          ? 'Enter an API key above.'
          : `${error.message} Check the key in the field above.`,
    };
  if (error.status === 429) {
    const wait = error.retryAfter === null ? '' : ` Try again in ${error.retryAfter} s.`;
    return { title: `Too many requests${code}`, detail: `${error.message}${wait}` };
  }
  if (error.status === 0) return { title: 'No answer from the API', detail: error.message };
  return { title: `The request failed${code}`, detail: error.message };
}
