import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { DomainError } from '@tcg/domain';
import { INTERNAL_HEADERS } from '@tcg/http-service';
import type { Request } from 'express';

/**
 * The id of the caller's key (never the key), as the gateway admitted it: what a key's own
 * resources (its alerts) belong to. Requests reach a controller only with the gateway's credential.
 */
export const CallerKey = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const id = ctx.switchToHttp().getRequest<Request>().header(INTERNAL_HEADERS.keyId);
  if (!id) throw new DomainError('MISSING_API_KEY', 'The gateway sent no key id.');
  return id;
});
