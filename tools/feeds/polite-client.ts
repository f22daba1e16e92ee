import { setTimeout as sleep } from 'node:timers/promises';
import { parseBoundedJson } from './bounded-json';
import { FeedDownloadError, fetchText, type DownloadDeadlines, type TextAnswer } from './download';

/** How hard a sync may press a public feed's server. */
export interface Politeness {
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Pause after each answer before that slot asks again. */
  readonly pauseMs: number;
  /** Retries of one request answered 429 or 503 (or cut off) before the sync gives up on it. */
  readonly retries: number;
  /** The longest `Retry-After` the sync waits for; a server asking for more ends the request. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_POLITENESS: Politeness = {
  concurrency: 2,
  pauseMs: 250,
  retries: 4,
  maxRetryAfterMs: 120_000,
};

/** Statuses that mean "not now": the request is asked again after the server's `Retry-After`. */
const BUSY = new Set([429, 503]);

/**
 * GETs of a public feed's documents, politely: at most `concurrency` at once, a pause after each
 * answer, the server's `Retry-After` honoured on 429 and 503 (else a doubling wait), every
 * request named by the project's User-Agent (download.ts) and bounded by the deadlines.
 */
export class PoliteClient {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Requests sent, retries included, and the waits a server asked for. */
  readonly stats = { requests: 0, retried: 0, waitedMs: 0 };

  constructor(
    private readonly politeness: Politeness = DEFAULT_POLITENESS,
    private readonly deadlines?: DownloadDeadlines,
    private readonly wait: (ms: number) => Promise<unknown> = (ms) => sleep(ms),
  ) {
    if (!(politeness.concurrency >= 1)) throw new Error('concurrency must be at least 1');
  }

  /** The document at `url`, parsed: `undefined` on 404, an error on any other failure. */
  async json(url: string, maxBytes: number): Promise<{ body: unknown; lastModified?: string } | undefined> {
    const answer = await this.get(url, maxBytes, 'application/json');
    if (answer.status === 404) return undefined;
    return { body: parseBoundedJson(url, answer.text), lastModified: answer.lastModified };
  }

  /** A short text document (a timestamp, an XML file): an error unless it is answered 200. */
  async text(url: string, maxBytes: number, accept = 'text/plain'): Promise<string> {
    const answer = await this.get(url, maxBytes, accept);
    if (answer.status !== 200) throw new FeedDownloadError(url, `HTTP ${answer.status}`);
    return answer.text;
  }

  private async get(url: string, maxBytes: number, accept: string): Promise<TextAnswer> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.slot(() =>
        fetchText(url, { headers: { accept }, deadlines: this.deadlines, maxBytes }).catch(
          (error: unknown) => error as Error,
        ),
      );
      // An answer past its size cap is refused, not asked for again.
      if (answer instanceof FeedDownloadError && /an answer longer than/.test(answer.reason)) throw answer;
      const cut = answer instanceof Error;
      if (!cut && (answer.status === 200 || answer.status === 404)) return answer;
      if (!cut && !BUSY.has(answer.status)) throw new FeedDownloadError(url, `HTTP ${answer.status}`);
      if (attempt >= this.politeness.retries)
        throw cut
          ? answer
          : new FeedDownloadError(url, `HTTP ${answer.status} after ${attempt + 1} attempts`);
      const asked = cut ? undefined : retryAfterMs(answer.retryAfter);
      const ms = asked ?? Math.min(1_000 * 2 ** attempt, this.politeness.maxRetryAfterMs);
      if (ms > this.politeness.maxRetryAfterMs)
        throw new FeedDownloadError(
          url,
          `the server asks to wait ${Math.ceil(ms / 1000)} s: more than allowed`,
        );
      this.stats.retried++;
      this.stats.waitedMs += ms;
      await this.wait(ms);
    }
  }

  /** Runs `request` in one of the `concurrency` slots, which pauses after it before the next. */
  private async slot<T>(request: () => Promise<T>): Promise<T> {
    while (this.active >= this.politeness.concurrency) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      this.stats.requests++;
      return await request();
    } finally {
      await this.wait(this.politeness.pauseMs);
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); else undefined. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  // An HTTP date: IMF-fixdate, the form servers send (`Fri, 27 Nov 2026 10:00:00 GMT`).
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
