import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './error-shape';
import type { LingerLimits } from './lingering-close';
import { type BodyFraming, bodyFraming, type FramingRejection, isFramingRejection } from './request-body';
import { isRejection, parseRequestTarget, RequestTarget } from './request-target';

export interface GuardedRequest {
  readonly target: RequestTarget;
  readonly framing: BodyFraming;
}

export interface RequestGuardOptions {
  readonly maxBodyBytes: number;
  readonly docsUrl: string;
  /** How a refusal with its body still on the wire closes the connection (see `endLastAnswer`). */
  readonly linger: LingerLimits;
}

/**
 * Runs before anything routes a request: refuses non-canonical targets and badly framed bodies
 * before admission, so they neither cost units nor reach a service. Returns the decision, or
 * undefined when the request was refused (and answered). A refused request whose body is still on
 * the wire gets `Connection: close` and a lingering close (see `endLastAnswer`): the body is never
 * read as a next request, and the client may finish sending it and read its answer.
 */
export function guardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  opts: RequestGuardOptions,
): GuardedRequest | undefined {
  const target = parseRequestTarget(req.url ?? '');
  const framing = bodyFraming(req.method ?? 'GET', req.headers, opts.maxBodyBytes);
  if (!isRejection(target) && !isFramingRejection(framing)) return { target, framing };
  const { status, code, message } = isRejection(target) ? target : (framing as FramingRejection);
  const bodyPending =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) !== 0;
  const last = bodyPending ? { req, linger: opts.linger } : undefined;
  sendError(res, target.version === 'v2' ? '/v2' : '/', status, code, message, opts.docsUrl, last);
  return undefined;
}
