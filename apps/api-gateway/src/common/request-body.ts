import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * How a request's body is framed, decided before admission so a refused request costs nothing.
 * Methods without body semantics may not carry one: forwarding it would let a client write bytes
 * onto a pooled upstream connection that the service could read as someone else's request.
 */

/** Methods whose body a service may read; every other method must come without one. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Whether a request of this method may carry a body (the others are refused one). */
export function mayHaveBody(method: string | undefined): boolean {
  return BODY_METHODS.has(method ?? '');
}

export type BodyFraming =
  | { readonly kind: 'none' }
  /** `length` when the client sent Content-Length, undefined for chunked. */
  | { readonly kind: 'body'; readonly length: number | undefined };

export interface FramingRejection {
  readonly status: 400 | 413;
  readonly code: 'INVALID_REQUEST' | 'PAYLOAD_TOO_LARGE';
  readonly message: string;
}

export function bodyFraming(
  method: string,
  headers: IncomingHttpHeaders,
  maxBodyBytes: number,
): BodyFraming | FramingRejection {
  const te = headers['transfer-encoding'];
  const cl = headers['content-length'];
  if (te !== undefined && cl !== undefined) {
    return invalid('Send either Content-Length or Transfer-Encoding, not both.');
  }
  if (cl !== undefined && !/^\d{1,15}$/.test(cl)) {
    return invalid('Content-Length must be one non-negative integer.');
  }
  const length = cl === undefined ? undefined : Number(cl);
  if (!mayHaveBody(method)) {
    if (te !== undefined || (length ?? 0) > 0) {
      return invalid(`A ${method} request may not have a body.`);
    }
    return { kind: 'none' };
  }
  if (te !== undefined && te.trim().toLowerCase() !== 'chunked') {
    return invalid('The only Transfer-Encoding accepted is "chunked".');
  }
  if (length !== undefined && length > maxBodyBytes) {
    return tooLarge(maxBodyBytes);
  }
  if (te === undefined && (length ?? 0) === 0) return { kind: 'none' };
  return { kind: 'body', length };
}

export function isFramingRejection(f: BodyFraming | FramingRejection): f is FramingRejection {
  return 'status' in f;
}

export function tooLarge(maxBodyBytes: number): FramingRejection {
  return {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `The request body is larger than ${maxBodyBytes} bytes.`,
  };
}

/**
 * Reads the whole body into memory, stopping (without reading further) as soon as it passes the
 * cap. The server's requestTimeout bounds how long a slow client can take to send it.
 */
export function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer | 'too-large'> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      stop();
      req.pause();
      done('too-large');
    };
    const onEnd = () => {
      stop();
      done(Buffer.concat(chunks, size));
    };
    // An aborted request closes (its 'error' is emitted only to listeners, and none is needed).
    const onClose = () => {
      stop();
      fail(new Error('client closed the connection while sending the body'));
    };
    const stop = () => req.off('data', onData).off('end', onEnd).off('close', onClose);
    req.on('data', onData).once('end', onEnd).once('close', onClose);
  });
}

function invalid(message: string): FramingRejection {
  return { status: 400, code: 'INVALID_REQUEST', message };
}
