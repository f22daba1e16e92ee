import {
  Agent,
  ClientRequest,
  IncomingMessage,
  OutgoingHttpHeaders,
  request,
  ServerResponse,
} from 'node:http';
import { clientResponseHeaders } from './forwarded-headers';
import { joinVary } from '../common/cors';
import { type WriteIdleDeadline, writeIdleDeadline } from '../common/write-idle';

export interface UpstreamOptions {
  readonly name: string;
  readonly url: URL;
  /** From dispatch (pool wait included) until the service's response headers. */
  readonly headersTimeoutMs: number;
  /**
   * From the response headers until the last byte of the response body; for a download
   * (`Content-Disposition: attachment`), the longest pause between two parts of the body.
   */
  readonly bodyTimeoutMs: number;
  readonly maxSockets: number;
  /** Requests dispatched and not yet settled, on a socket or waiting for one; beyond it: busy. */
  readonly maxInFlight: number;
  /** Below the service's keepAliveTimeout, so the gateway never writes to a socket being closed. */
  readonly freeSocketTimeoutMs: number;
  /**
   * Longest the client may leave the response backpressured (it takes nothing while the gateway
   * has more to send); past it the response is cut and its upstream socket closed at once.
   */
  readonly writeIdleTimeoutMs: number;
  /** Bounds on file downloads through this client (the download pool); none for the others. */
  readonly downloads?: DownloadLimits;
  /** Told each response's status and the seconds from dispatch to its headers (the metrics). */
  readonly onResponse?: (status: number, seconds: number) => void;
  /** Told when a response is cut because of the client, and why (the metrics). */
  readonly onCut?: (reason: CutReason) => void;
  /** Told when a file download starts (+1) and ends, however it ends (-1). */
  readonly onDownload?: (delta: 1 | -1) => void;
}

/** What a slow client may cost a download: it must keep an average rate, and it has an end. */
export interface DownloadLimits {
  /** The average rate from the response headers on, checked once `graceMs` have passed. */
  readonly minBytesPerSecond: number;
  readonly graceMs: number;
  readonly maxDurationMs: number;
}

export type CutReason = 'write_idle' | 'too_slow' | 'max_duration';

/** How often a download's average rate and duration are checked. */
const DOWNLOAD_CHECK_MS = 1_000;

export interface UpstreamCall {
  readonly method: string;
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: Buffer;
}

export type UpstreamFailure =
  | { readonly kind: 'busy' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'unavailable'; readonly error: string };

/** A response the service sends as a file to save (`Content-Disposition: attachment`). */
function isDownload(res: IncomingMessage): boolean {
  return /^\s*attachment\b/i.test(res.headers['content-disposition'] ?? '');
}

/** Resets that mean a pooled socket was closed by the service just as it was reused. */
const STALE_SOCKET_ERRORS = new Set(['ECONNRESET', 'EPIPE']);

/**
 * One service behind the gateway: a bounded keep-alive pool, one deadline per request that runs
 * from dispatch (so it covers the wait for a pooled socket) to the response headers, and one for
 * the body. A request that misses a deadline, fails, or whose client went away is destroyed with
 * its socket, which is never reused.
 */
export class UpstreamClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: string;
  private inFlight = 0;

  constructor(readonly options: UpstreamOptions) {
    this.host = options.url.hostname;
    this.port = options.url.port;
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: options.maxSockets,
      maxFreeSockets: options.maxSockets,
      timeout: options.freeSocketTimeoutMs,
      scheduling: 'lifo',
    });
  }

  get name(): string {
    return this.options.name;
  }

  /**
   * Sends the call and streams the answer into `client`; `fail` is called instead, at most once,
   * when no response headers came (the caller answers in the version's error shape).
   */
  forward(call: UpstreamCall, client: ServerResponse, fail: (failure: UpstreamFailure) => void): void {
    if (this.inFlight >= this.options.maxInFlight) {
      fail({ kind: 'busy' });
      return;
    }
    this.inFlight += 1;
    const dispatched = process.hrtime.bigint();
    let settled = false;
    let current: ClientRequest | undefined;
    let bodyTimer: NodeJS.Timeout | undefined;
    let idle: WriteIdleDeadline | undefined;
    let downloadCheck: NodeJS.Timeout | undefined;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.inFlight -= 1;
      clearTimeout(headersTimer);
      clearTimeout(bodyTimer);
      idle?.stop();
      if (downloadCheck) {
        clearInterval(downloadCheck);
        this.options.onDownload?.(-1);
      }
      client.off('close', onClientClose);
      return true;
    };
    // The upstream socket goes with the request (never back to the pool), so it is free at once.
    const cut = (reason: CutReason) => {
      if (!settle()) return;
      current?.destroy();
      client.destroy();
      this.options.onCut?.(reason);
    };
    const headersTimer = setTimeout(() => {
      if (!settle()) return;
      current?.destroy();
      fail({ kind: 'timeout' });
    }, this.options.headersTimeoutMs);
    const onClientClose = () => {
      if (!settle()) return;
      current?.destroy();
    };
    client.once('close', onClientClose);

    const attempt = (retryStaleSocket: boolean) => {
      const upstreamReq = request({
        agent: this.agent,
        host: this.host,
        port: this.port,
        method: call.method,
        path: call.path,
        headers: call.headers,
      });
      current = upstreamReq;
      upstreamReq.on('response', (upstreamRes: IncomingMessage) => {
        if (settled) {
          upstreamReq.destroy();
          return;
        }
        clearTimeout(headersTimer);
        this.options.onResponse?.(
          upstreamRes.statusCode ?? 502,
          Number(process.hrtime.bigint() - dispatched) / 1e9,
        );
        bodyTimer = setTimeout(() => {
          if (!settle()) return;
          upstreamReq.destroy();
          client.destroy();
        }, this.options.bodyTimeoutMs);
        const headers = clientResponseHeaders(upstreamRes.headers);
        // The service's Vary and CORS's (set on the client response before) both hold.
        const vary = joinVary(headers['vary'], client.getHeader('vary'));
        if (vary !== undefined) headers['vary'] = vary;
        client.writeHead(upstreamRes.statusCode ?? 502, headers);
        // A file download (bulk data: tens of MB at the pace of the client's link) may take
        // longer than the deadline in all; for it the deadline is the longest pause between two
        // parts of the body, which still catches a service that stopped sending.
        const download = isDownload(upstreamRes);
        if (download) upstreamRes.on('data', () => bodyTimer?.refresh());
        if (download && this.options.downloads)
          downloadCheck = this.bound(upstreamRes, this.options.downloads, cut);
        upstreamRes.on('end', () => settle());
        upstreamRes.on('error', () => {
          if (settle()) client.destroy();
        });
        upstreamRes.on('aborted', () => {
          if (settle()) client.destroy();
        });
        upstreamRes.pipe(client);
        // After pipe's own listener, so the write that just happened is the one looked at.
        idle = writeIdleDeadline(client, this.options.writeIdleTimeoutMs, () => cut('write_idle'));
        upstreamRes.on('data', idle.wrote);
      });
      upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        if (client.headersSent) {
          // Mid-body: the status is gone already, so the client can only see a cut connection.
          settle();
          client.destroy();
          return;
        }
        const idempotent = call.method === 'GET' || call.method === 'HEAD';
        if (
          retryStaleSocket &&
          idempotent &&
          upstreamReq.reusedSocket &&
          STALE_SOCKET_ERRORS.has(error.code ?? '')
        ) {
          attempt(false);
          return;
        }
        settle();
        fail({ kind: 'unavailable', error: error.code ?? error.message });
      });
      upstreamReq.end(call.body);
    };
    attempt(true);
  }

  /**
   * Checks a download every second: below the average rate once the grace has passed, or past
   * its longest duration, it is cut (the client resumes with Range).
   */
  private bound(
    upstreamRes: IncomingMessage,
    limits: DownloadLimits,
    cut: (reason: CutReason) => void,
  ): NodeJS.Timeout {
    const since = Date.now();
    let bytes = 0;
    upstreamRes.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const timer = setInterval(() => {
      const elapsedMs = Date.now() - since;
      if (elapsedMs >= limits.maxDurationMs) cut('max_duration');
      else if (elapsedMs >= limits.graceMs && (bytes * 1000) / elapsedMs < limits.minBytesPerSecond)
        cut('too_slow');
    }, DOWNLOAD_CHECK_MS);
    timer.unref();
    this.options.onDownload?.(1);
    return timer;
  }

  close(): void {
    this.agent.destroy();
  }
}
