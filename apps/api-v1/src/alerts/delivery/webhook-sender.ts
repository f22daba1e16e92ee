import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { Client } from 'undici';
import {
  checkWebhookUrl,
  isUrlRefusal,
  type LookupAll,
  type ResolvedAddress,
  resolvePublicAddresses,
  type UrlRefusalRule,
} from './address-policy';

/** How one delivery attempt may go. */
export interface SendOptions {
  /** Lets http and non-public addresses through: local development and tests only. */
  readonly allowPrivate: boolean;
  /** DNS resolution, and then the TCP (and TLS) connection, each within this. */
  readonly connectTimeoutMs: number;
  /** From the connection to the response's status, and the part of its body read, in all. */
  readonly responseTimeoutMs: number;
  /** At most this much of the response body is read, then the connection is dropped. */
  readonly maxResponseBytes: number;
  /** In place of the system resolver (tests). */
  readonly lookup?: LookupAll;
}

/**
 * Why an attempt did not succeed:
 * - a UrlRefusalRule: the URL or the addresses its host resolved to were refused (nothing sent);
 * - `connect_timeout`, `connect_refused`, `unreachable`, `tls_error`: no connection;
 * - `connection_reset`: the receiver closed the connection before the status;
 * - `timeout`: no status within responseTimeoutMs;
 * - `invalid_request`: undici refused the request as given (a header it forbids);
 * - `network_error`: anything else before a status;
 * - `redirect_not_followed`: a 3xx (redirects are not followed: the target was never checked);
 * - `http_<status>`: any other status that is not 2xx.
 */
export type AttemptError =
  | UrlRefusalRule
  | 'connect_timeout'
  | 'connect_refused'
  | 'unreachable'
  | 'tls_error'
  | 'connection_reset'
  | 'timeout'
  | 'invalid_request'
  | 'network_error'
  | 'redirect_not_followed'
  | `http_${number}`;

/**
 * The outcome of one attempt. `ok` iff the receiver answered 2xx; `error` is null iff `ok`;
 * `status` is the receiver's status whenever one came (a failure to read the rest of the body
 * after it changes nothing: the status is the receiver's answer). `durationMs`: whole milliseconds
 * from the call to the outcome, resolution included.
 */
export interface AttemptResult {
  readonly ok: boolean;
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: AttemptError | null;
}

const CONNECT_ERRORS: Readonly<Record<string, AttemptError>> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect_timeout',
  ETIMEDOUT: 'connect_timeout',
  ECONNREFUSED: 'connect_refused',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_INVALID_ARG: 'invalid_request',
};

/** OpenSSL's certificate verification codes, as Node reports them (besides its ERR_TLS_ and ERR_SSL_ ones). */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY|DECRYPT|DECODE)/;

function errorCode(error: unknown): AttemptError {
  // With several addresses, Node tries each (RFC 8305) and reports all failures together.
  const first =
    error instanceof AggregateError && error.errors.length > 0 ? (error.errors[0] as unknown) : error;
  const code =
    typeof first === 'object' && first !== null && 'code' in first && typeof first.code === 'string'
      ? first.code
      : '';
  const known = CONNECT_ERRORS[code];
  if (known !== undefined) return known;
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || CERTIFICATE_ERROR.test(code))
    return 'tls_error';
  return 'network_error';
}

function statusError(status: number): AttemptError | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return 'redirect_not_followed';
  return `http_${status}`;
}

/**
 * A `lookup` for the connection that answers with the addresses already checked, whatever name it
 * is asked for: the socket can only go where the policy allowed, even if the name's DNS answers
 * have changed since (DNS rebinding). The name itself still goes into the Host header and SNI.
 */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname: string, options: LookupOptions, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable: LookupAddress[] = addresses
      .filter(({ family }) => wanted === undefined || family === wanted)
      .map(({ address, family }) => ({ address, family }));
    if (usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no checked IPv${wanted} address`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  };
}

/** Reads up to `maxBytes` of the body and drops the rest unread; never throws. */
async function readAtMost(body: Readable, maxBytes: number): Promise<void> {
  let read = 0;
  try {
    if (maxBytes > 0)
      for await (const chunk of body) {
        read += (chunk as Buffer).length;
        if (read >= maxBytes) break;
      }
  } catch {
    // The status came already: a body cut short or late does not change the outcome.
  } finally {
    body.destroy();
  }
}

/**
 * One delivery attempt: POSTs `body` with `headers` to `url`, on a connection of its own. Never
 * throws. The URL is checked again (checkWebhookUrl) and its host resolved and checked now
 * (resolvePublicAddresses); the connection then goes only to those addresses, whatever DNS says by
 * then. Redirects are not followed. At most `maxResponseBytes` of the response body are read
 * before the connection is dropped. A `host` header among `headers` is ignored: the Host is the
 * URL's, the one that was checked.
 */
export async function sendWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const outcome = (status: number | null, error: AttemptError | null): AttemptResult => ({
    ok: error === null && status !== null,
    status,
    durationMs: Math.round(performance.now() - started),
    error,
  });

  const checked = checkWebhookUrl(url.href, options.allowPrivate);
  if (isUrlRefusal(checked)) return outcome(null, checked.rule);
  const addresses = await resolvePublicAddresses(checked.hostname, options.allowPrivate, {
    lookup: options.lookup,
    timeoutMs: options.connectTimeoutMs,
  }).catch(() => ({ rule: 'unresolvable', message: '' }) as const);
  if (isUrlRefusal(addresses)) return outcome(null, addresses.rule);

  let client: Client | undefined;
  const abort = new AbortController();
  let deadline: NodeJS.Timeout | undefined;
  let timedOut = false;
  const expireIn = (ms: number) => {
    clearTimeout(deadline);
    deadline = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, ms);
  };
  let status: number | null = null;
  try {
    client = new Client(checked.origin, {
      connect: { lookup: pinnedLookup(addresses), timeout: options.connectTimeoutMs },
      // Backstops for the deadline below, on the connection itself.
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
      // One request per connection: nothing to keep alive, and no connection outlives the call.
      pipelining: 0,
    });
    // Connecting has its own deadline (undici's); this one, in case that one never fires, is
    // replaced by the response's once connected.
    expireIn(options.connectTimeoutMs + options.responseTimeoutMs);
    client.once('connect', () => expireIn(options.responseTimeoutMs));

    const response = await client.request({
      method: 'POST',
      path: checked.pathname + checked.search,
      headers: Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'host')),
      body,
      signal: abort.signal,
    });
    status = response.statusCode;
    await readAtMost(response.body, options.maxResponseBytes);
    return outcome(status, statusError(status));
  } catch (error) {
    if (status !== null) return outcome(status, statusError(status));
    return outcome(null, timedOut ? 'timeout' : errorCode(error));
  } finally {
    clearTimeout(deadline);
    // Destroy rather than close: close would wait for a response still streaming in.
    await client?.destroy().catch(() => undefined);
  }
}
