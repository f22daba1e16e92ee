import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { errors, Pool } from 'undici';
import { clientResponseHeaders } from './forwarded-headers';
import { joinVary } from '../common/cors';
import { endWithin, type WriteIdleDeadline, writeIdleDeadline } from '../common/write-idle';

export interface UpstreamOptions {
  readonly name: string;
  readonly url: URL;
  /** From dispatch (the wait for a pooled connection included) to the response headers. */
  readonly headersTimeoutMs: number;
  /** From the headers to the body's end; for a download, the longest pause between two parts. */
  readonly bodyTimeoutMs: number;
  readonly maxSockets: number;
  /** Requests dispatched and not yet settled, on a connection or waiting for one; beyond: busy. */
  readonly maxInFlight: number;
  /** Below the service's keepAliveTimeout, so the gateway never writes to a socket being closed. */
  readonly freeSocketTimeoutMs: number;
  /** Longest the client may take nothing while the gateway has more to send; past it: cut. */
  readonly writeIdleTimeoutMs: number;
  /** What a slow client may cost a download (the download pool's only). */
  readonly downloads?: DownloadLimits;
  /** For the metrics: each response's status and seconds from dispatch to headers, cuts, downloads. */
  readonly onResponse?: (status: number, seconds: number) => void;
  readonly onCut?: (reason: CutReason) => void;
  readonly onDownload?: (delta: 1 | -1) => void;
}

/**
 * A download must keep a rate, counted on what its client took and averaged over the last
 * `graceMs` (at least a second) once `graceMs` passed, and it ends.
 */
export interface DownloadLimits {
  readonly minBytesPerSecond: number;
  readonly graceMs: number;
  readonly maxDurationMs: number;
}

export type CutReason = 'write_idle' | 'too_slow' | 'max_duration';

/**
 * Answers up to this size (by their Content-Length) are held until whole and sent with endWithin
 * (up to its 64 KiB slice in one write, with the headers: a card lookup is 16 to 40 KB); larger
 * ones, and those of unknown length, are streamed.
 */
const HELD_BODY_BYTES = 128 * 1024;

/** How often a download's average rate and duration are checked. */
const DOWNLOAD_CHECK_MS = 1_000;

export interface UpstreamCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body?: Buffer;
}

export type UpstreamFailure =
  | { readonly kind: 'busy' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'unavailable'; readonly error: string };

/** A failed call or body, named by its error code when it has one. */
function unavailable(error: NodeJS.ErrnoException): UpstreamFailure {
  return { kind: 'unavailable', error: error.code ?? error.message };
}

/** A response the service sends as a file to save (`Content-Disposition: attachment`). */
function isDownload(headers: IncomingHttpHeaders): boolean {
  return /^\s*attachment\b/i.test(String(headers['content-disposition'] ?? ''));
}

/**
 * A request's abort signal as undici also takes it: an EventEmitter with `aborted`. An
 * AbortController (an EventTarget) costs 3.2 µs a request for the two listeners undici adds and
 * removes, this 0.1 µs (node 20, this machine), and the gateway makes one per request.
 */
class AbortEmitter extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/**
 * The service closed, before any answer, a connection that had carried an earlier one: a pooled
 * keep-alive connection it let go just as it was reused, which an idempotent request may be sent
 * again for, once (as node's `reusedSocket` allowed). A connection reset is never retried.
 */
function closedWhenReused(error: unknown): boolean {
  return error instanceof errors.SocketError && (error.socket?.bytesRead ?? 0) > 0;
}

/**
 * One service behind the gateway, on undici's Pool: at most `maxSockets` keep-alive connections,
 * one request at a time on each. One deadline per request runs from dispatch (so it covers the
 * wait for a pooled connection) to the response headers, one from there to the body's end (a
 * download's is the Pool's `bodyTimeout`: the longest pause between two parts). A request that
 * misses a deadline, fails, or whose client went away is aborted, and undici closes its
 * connection, which is never reused.
 */
export class UpstreamClient {
  private readonly pool: Pool;
  private inFlight = 0;

  constructor(readonly options: UpstreamOptions) {
    this.pool = new Pool(options.url.origin, {
      connections: options.maxSockets,
      pipelining: 1,
      // The dispatch deadline (headersTimeoutMs, pool wait included) ends a request first; these
      // bound the same wait on the connection itself.
      connectTimeout: options.headersTimeoutMs,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: options.freeSocketTimeoutMs,
      keepAliveMaxTimeout: options.freeSocketTimeoutMs,
    });
  }

  /**
   * Sends the call and streams the answer into `client`; `fail` is called instead, at most once,
   * when nothing was sent to the client: no response headers came, or a held answer (see
   * HELD_BODY_BYTES) did not come whole. The caller answers in the version's error shape.
   */
  forward(call: UpstreamCall, client: ServerResponse, fail: (failure: UpstreamFailure) => void): void {
    if (this.inFlight >= this.options.maxInFlight) {
      fail({ kind: 'busy' });
      return;
    }
    this.inFlight += 1;
    const dispatched = process.hrtime.bigint();
    const abort = new AbortEmitter();
    let settled = false;
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
    // Aborting destroys the upstream connection (never back to the pool), so it is free at once.
    const stop = () => {
      if (!settle()) return false;
      abort.abort();
      return true;
    };
    const cut = (reason: CutReason) => {
      if (!stop()) return;
      client.destroy();
      this.options.onCut?.(reason);
    };
    const headersTimer = setTimeout(() => {
      if (stop()) fail({ kind: 'timeout' });
    }, this.options.headersTimeoutMs);
    const onClientClose = () => stop();
    client.once('close', onClientClose);

    const answer = (status: number, headers: IncomingHttpHeaders, body: Readable) => {
      clearTimeout(headersTimer);
      this.options.onResponse?.(status, Number(process.hrtime.bigint() - dispatched) / 1e9);
      const download = isDownload(headers);
      // Nothing of a held answer has reached the client when it fails: the caller answers it.
      const held = !download && Number(headers['content-length']) <= HELD_BODY_BYTES;
      // A file download (bulk data: tens of MB at the pace of the client's link) may take longer
      // than the deadline in all; for it the Pool's bodyTimeout bounds each pause instead.
      if (!download)
        bodyTimer = setTimeout(() => {
          if (!stop()) return;
          if (held) fail({ kind: 'timeout' });
          else client.destroy();
        }, this.options.bodyTimeoutMs);
      const forwarded = clientResponseHeaders(headers);
      // The service's Vary and CORS's (set on the client response before) both hold.
      const vary = joinVary(forwarded['vary'], client.getHeader('vary'));
      if (vary !== undefined) forwarded['vary'] = vary;
      if (held) {
        this.sendHeld(status, forwarded, body, client, settle, fail);
        return;
      }
      client.writeHead(status, forwarded);
      if (download && this.options.downloads) downloadCheck = this.bound(client, this.options.downloads, cut);
      body.on('end', settle);
      // Mid-body (the service dropped it, a deadline): the status is gone already, so the client
      // can only see a cut connection.
      body.on('error', () => {
        if (settle()) client.destroy();
      });
      body.pipe(client);
      // After pipe's own listener, so the write that just happened is the one looked at.
      idle = writeIdleDeadline(client, this.options.writeIdleTimeoutMs, () => cut('write_idle'));
      body.on('data', idle.wrote);
    };

    const { method, path, headers, body } = call;
    const send = (retry: boolean): void =>
      void this.pool.request({ method, path, headers, body, signal: abort }).then(
        (res) => (settled ? res.body.destroy() : answer(res.statusCode, res.headers, res.body)),
        (error: NodeJS.ErrnoException) => {
          if (settled) return;
          if (retry && (method === 'GET' || method === 'HEAD') && closedWhenReused(error)) return send(false);
          settle();
          fail(unavailable(error));
        },
      );
    send(true);
  }

  /**
   * Sends a small answer whole once the service has sent all of it: the status line, the headers
   * and the body leave in one write (endWithin's, up to its slice), where streaming it wrote to the
   * client once per part read from the service. The body deadline (armed by the caller) still
   * bounds the wait for it. An answer the service cuts, or that misses the deadline, has sent the
   * client nothing, so it is failed (the caller answers 503 or 504 in the version's shape) rather
   * than cut mid-body. Once it is sent, endWithin's write-idle deadline holds until the client has
   * taken the end.
   */
  private sendHeld(
    status: number,
    headers: OutgoingHttpHeaders,
    body: Readable,
    client: ServerResponse,
    settle: () => boolean,
    fail: (failure: UpstreamFailure) => void,
  ): void {
    const parts: Buffer[] = [];
    body.on('data', (part: Buffer) => parts.push(part));
    body.on('error', (error: NodeJS.ErrnoException) => {
      if (settle()) fail(unavailable(error));
    });
    body.on('end', () => {
      if (!settle()) return;
      client.writeHead(status, headers);
      endWithin(
        client,
        parts.length === 1 ? parts[0]! : Buffer.concat(parts),
        this.options.writeIdleTimeoutMs,
        () => this.options.onCut?.('write_idle'),
      );
    });
  }

  /**
   * Checks a download every second: below the rate once the grace has passed, or past its longest
   * duration, it is cut (the client resumes with Range). The rate is of the bytes the client's
   * socket has written out (its writes drained into the kernel), over a window as long as the
   * grace: counted on what was pulled from the service, a client that stops reading would be
   * credited with what waits in the gateway, and averaged from the start, with the burst that
   * filled its buffers, for minutes after it took nothing.
   */
  private bound(
    client: ServerResponse,
    limits: DownloadLimits,
    cut: (reason: CutReason) => void,
  ): NodeJS.Timeout {
    const socket = client.socket;
    const drained = () => (socket ? socket.bytesWritten - socket.writableLength : 0);
    const since = Date.now();
    const windowMs = Math.max(limits.graceMs, DOWNLOAD_CHECK_MS);
    // The oldest is the last sample at or before the window's start.
    const samples: { at: number; bytes: number }[] = [{ at: since, bytes: drained() }];
    const timer = setInterval(() => {
      const now = Date.now();
      const bytes = drained();
      samples.push({ at: now, bytes });
      while (samples.length > 1 && samples[1]!.at <= now - windowMs) samples.shift();
      const oldest = samples[0]!;
      if (now - since >= limits.maxDurationMs) cut('max_duration');
      else if (
        now - since >= limits.graceMs &&
        now > oldest.at &&
        ((bytes - oldest.bytes) * 1000) / (now - oldest.at) < limits.minBytesPerSecond
      )
        cut('too_slow');
    }, DOWNLOAD_CHECK_MS);
    timer.unref();
    this.options.onDownload?.(1);
    return timer;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
