import { requestTargetTooLong } from './request-schema/query-values';
import type { NextFunction, Request, Response } from 'express';

/**
 * A path or query string past its cap (QUERY_LIMITS) is a 400 before anything reads it: Express
 * parses the query on first use, so nothing downstream works on more than the caps allow.
 * configureService mounts it ahead of the body parser and the routes.
 */
export function limitRequestTarget(req: Request, _res: Response, next: NextFunction): void {
  next(requestTargetTooLong(req.originalUrl));
}
