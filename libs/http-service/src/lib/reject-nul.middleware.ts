import { Injectable, NestMiddleware } from '@nestjs/common';
import { nulField, nulRejected } from '@tcg/domain';
import type { NextFunction, Request, Response } from 'express';

/** A NUL in the path or a query value is a 400 naming it, never a database error (a 500). */
@Injectable()
export class RejectNulMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    const parameter = nulParameter(req.originalUrl.split('?', 1)[0]!, req.query as Record<string, unknown>);
    if (parameter) throw nulRejected(parameter);
    next();
  }
}

/** The first request parameter holding a NUL character (`path` for the path, still percent-encoded). */
export function nulParameter(path: string, query: Readonly<Record<string, unknown>>): string | undefined {
  return /%00/i.test(path) ? 'path' : nulField(query);
}
