import { isPlanName, PLANS } from '@tcg/domain';
import { requestCacheKey, SendOptions } from '@tcg/http-service';
import type { IncomingMessage } from 'node:http';
import { UsageMetadataDto } from './decorators/usage.decorator';

/**
 * How a v1 GET answer is sent: cached per request target and the plan's page-size cap (the only
 * part of a plan an answer depends on), with `_metadata`, this request's usage, appended last.
 */
export function v1SendOptions(req: IncomingMessage, usage: UsageMetadataDto): SendOptions {
  const plan = isPlanName(usage.apiPlan) ? PLANS[usage.apiPlan] : PLANS.free;
  return {
    key: requestCacheKey(req, plan.maxLimit),
    perRequest: { name: '_metadata', value: usage },
  };
}
