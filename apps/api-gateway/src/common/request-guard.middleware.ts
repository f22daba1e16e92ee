import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './error-shape';
import { BodyFraming, bodyFraming, isFramingRejection } from './request-body';
import { isRejection, parseRequestTarget, RequestTarget } from './request-target';

export interface GuardedRequest {
  readonly target: RequestTarget;
  readonly framing: BodyFraming;
}

const guarded = new WeakMap<IncomingMessage, GuardedRequest>();

/** What the guard decided for a request that passed it (routing and cost read only this). */
export function guardedRequest(req: IncomingMessage): GuardedRequest | undefined {
  return guarded.get(req);
}

/**
 * Runs before Express routes anything: refuses non-canonical targets and badly framed bodies
 * before admission, so they neither cost units nor reach a service. A refused request whose body
 * is still on the wire gets `Connection: close`, so the body is never read as a next request.
 */
export function requestGuard(opts: { maxBodyBytes: number; docsUrl: string }) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const target = parseRequestTarget(req.url ?? '');
    const shapePath = (version: string | undefined) => (version === 'v2' ? '/v2' : '/');
    if (isRejection(target)) {
      refuse(req, res, shapePath(target.version), target.status, target.code, target.message, opts.docsUrl);
      return;
    }
    const framing = bodyFraming(req.method ?? 'GET', req.headers, opts.maxBodyBytes);
    if (isFramingRejection(framing)) {
      refuse(
        req,
        res,
        shapePath(target.version),
        framing.status,
        framing.code,
        framing.message,
        opts.docsUrl,
      );
      return;
    }
    guarded.set(req, { target, framing });
    next();
  };
}

function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  shapePath: string,
  status: number,
  code: string,
  message: string,
  docsUrl: string,
): void {
  const bodyPending =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) !== 0;
  if (bodyPending) res.setHeader('connection', 'close');
  sendError(res, shapePath, status, code, message, docsUrl);
}
