import {
  apiErrorFor,
  TcgAbortError,
  TcgApiError,
  TcgError,
  TcgNetworkError,
  TcgResponseTooLargeError,
  TcgTimeoutError,
} from './errors.js';
import type { CallOptions, ProblemDetails, V1ErrorBody } from './types.js';

/** Waits `ms`, or rejects with the signal's reason once it is aborted. */
export type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/**
 * When a failed attempt may be sent again:
 * - `idempotent` (every GET): on 429 and 503, and when no answer came (the connection failed);
 * - `unanswered` (the batch lookup, a POST that reads): on 429 and 503 only, the answers that
 *   say no result was made; never after a broken connection or a timeout, when the service may be
 *   working on it still;
 * - `refused` (writes: creating or deleting an alert): on 429 only, which the gateway decides
 *   before anything is done or charged.
 */
export type RetryPolicy = 'idempotent' | 'unanswered' | 'refused';

export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryBaseMs: number;
  readonly retryMaxDelayMs: number;
  readonly maxRetryWaitMs: number;
  /** Longest answer body read (Infinity: no limit). */
  readonly maxResponseBytes: number;
  readonly fetch: typeof fetch;
  readonly sleep: Sleep;
  readonly random: () => number;
}

export interface RequestSpec {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The path with its query, from the API's root (`/v1/cards?…`). */
  readonly path: string;
  readonly body?: unknown;
  readonly retry: RetryPolicy;
  readonly options?: CallOptions;
}

/** Longest `Retry-After` value read: a number of seconds or an HTTP date is far shorter. */
const RETRY_AFTER_MAX_LENGTH = 64;
/** Characters of a non-JSON error answer kept in the error's message. */
const TEXT_IN_MESSAGE = 200;

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Seconds to wait from a `Retry-After` header (delay-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.length > RETRY_AFTER_MAX_LENGTH) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A query string from typed parameters: arrays comma-separated (the documents' `style: form,
 * explode: false`), an empty array as an empty value (`include=`: prices only), undefined and
 * null left out.
 */
export function queryString(params: object | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) continue;
    search.append(name, Array.isArray(value) ? value.map(String).join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** `AbortSignal.any` where the platform has it (Node 20.3+, current browsers), else the same by hand. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

function isRetryable(error: TcgError, policy: RetryPolicy): boolean {
  if (error instanceof TcgApiError) {
    if (error.status === 429) return true;
    return error.status === 503 && policy !== 'refused';
  }
  return error instanceof TcgNetworkError && policy === 'idempotent';
}

/**
 * What a failed fetch says: the cause's message where there is one (undici's `fetch failed` hides
 * `connect ECONNREFUSED …` there). Read by shape: an error from another realm is no `instanceof Error`.
 */
function describeFailure(error: unknown): string {
  const messageOf = (e: unknown) =>
    typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string'
      ? (e as { message: string }).message
      : undefined;
  return messageOf((error as { cause?: unknown } | null)?.cause) ?? messageOf(error) ?? String(error);
}

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  /** Sends the request, retrying as its policy allows; the parsed JSON answer (undefined for 204). */
  async request<T>(spec: RequestSpec): Promise<T> {
    const { options } = this;
    const retries = spec.options?.retries ?? options.retries;
    const signal = spec.options?.signal;
    let waitedMs = 0;
    for (let attempt = 0; ; attempt++) {
      let failure: TcgError;
      try {
        return (await this.attempt(spec)) as T;
      } catch (error) {
        if (!(error instanceof TcgError)) throw error;
        failure = error;
      }
      if (attempt >= retries || !isRetryable(failure, spec.retry)) throw failure;
      const delayMs = this.delay(attempt, failure instanceof TcgApiError ? failure.retryAfter : undefined);
      // Past the budget the caller gets the error now (with its retryAfter) rather than later.
      if (waitedMs + delayMs > options.maxRetryWaitMs) throw failure;
      try {
        await options.sleep(delayMs, signal);
      } catch (reason) {
        throw new TcgAbortError(spec.method, spec.path, { cause: reason });
      }
      waitedMs += delayMs;
    }
  }

  /**
   * The wait before retry number `attempt + 1`: exponential from `retryBaseMs`, capped at
   * `retryMaxDelayMs`, half of it random so that clients refused together do not come back
   * together; never less than `Retry-After`, with up to `retryBaseMs` of spread above it.
   */
  private delay(attempt: number, retryAfterSeconds: number | undefined): number {
    const { retryBaseMs, retryMaxDelayMs, random } = this.options;
    const ceiling = Math.min(retryMaxDelayMs, retryBaseMs * 2 ** attempt);
    const backoff = ceiling / 2 + (random() * ceiling) / 2;
    if (retryAfterSeconds === undefined) return Math.round(backoff);
    return Math.round(Math.max(backoff, retryAfterSeconds * 1000 + random() * retryBaseMs));
  }

  private async attempt(spec: RequestSpec): Promise<unknown> {
    const { method, path } = spec;
    const callerSignal = spec.options?.signal;
    if (callerSignal?.aborted) throw new TcgAbortError(method, path, { cause: callerSignal.reason });
    const timeoutMs = spec.options?.timeoutMs ?? this.options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? anySignal([callerSignal, timeout]) : timeout;
    const failed = (error: unknown): TcgError => {
      if (callerSignal?.aborted) return new TcgAbortError(method, path, { cause: callerSignal.reason });
      if (timeout.aborted) return new TcgTimeoutError(method, path, timeoutMs);
      const detail = describeFailure(error);
      return new TcgNetworkError(`${method} ${path} failed: ${detail}`, method, path, { cause: error });
    };

    const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': this.options.apiKey };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await this.options.fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal,
      });
      // Read inside the same deadline: a body that stalls is a timeout too.
      text = await this.bodyText(response, spec);
    } catch (error) {
      if (error instanceof TcgResponseTooLargeError) throw error;
      throw failed(error);
    }

    if (!response.ok) throw this.apiError(spec, response, text);
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new TcgError(`${method} ${path} answered ${response.status} with a body that is not JSON`);
    }
  }

  /** The body as text, at most `maxResponseBytes` of it read: past that the rest is left unread. */
  private async bodyText(response: Response, spec: RequestSpec): Promise<string> {
    const max = this.options.maxResponseBytes;
    if (max === Infinity || !response.body) return response.text();
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel();
        throw new TcgResponseTooLargeError(spec.method, spec.path, max);
      }
      chunks.push(value);
    }
    const whole = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      whole.set(chunk, at);
      at += chunk.byteLength;
    }
    return new TextDecoder().decode(whole);
  }

  private apiError(spec: RequestSpec, response: Response, text: string): TcgApiError {
    const { status } = response;
    let body: V1ErrorBody | ProblemDetails | string | undefined = text === '' ? undefined : text;
    let code = `HTTP_${status}`;
    let message = `${spec.method} ${spec.path} answered ${status}${text ? `: ${text.slice(0, TEXT_IN_MESSAGE)}` : ''}`;
    if (/json/i.test(response.headers.get('content-type') ?? '')) {
      try {
        const parsed = JSON.parse(text) as Partial<V1ErrorBody & ProblemDetails> | null;
        if (parsed && typeof parsed === 'object') {
          body = parsed as V1ErrorBody | ProblemDetails;
          if (typeof parsed.code === 'string') code = parsed.code;
          // v1 says it in `error`, v2 (RFC 7807) in `detail` under a `title`.
          const said = parsed.error ?? parsed.detail ?? parsed.title;
          if (typeof said === 'string' && said) message = said;
        }
      } catch {
        // Not JSON after all: the text stays the body and the message.
      }
    }
    return apiErrorFor({
      status,
      code,
      message,
      body,
      method: spec.method,
      path: spec.path,
      requestId: response.headers.get('x-request-id') ?? undefined,
      retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    });
  }
}
