import { isPlanName, PlanLimits, PLANS } from '@tcg/domain';
import { requestCacheKey, SendOptions } from '@tcg/http-service';
import type { IncomingMessage } from 'node:http';
import { UsageMetadataDto } from './decorators/usage.decorator';

/**
 * How a v1 GET answer is sent: cached per path, parsed parameters and what else it depends on,
 * by default the plan's page-size cap (the only part of a plan an answer depends on), with
 * `_metadata`, this request's usage, appended last. `parameters` are the route's, as parsed; a
 * route without any (or one never cached) leaves them out.
 */
export function v1SendOptions(
  req: IncomingMessage,
  usage: UsageMetadataDto,
  parameters: object = {},
  dependsOn: string | number = planOf(usage).maxLimit,
): SendOptions {
  return {
    key: requestCacheKey(req, dependsOn, parameters),
    perRequest: { name: '_metadata', value: usage },
  };
}

/** The limits of the caller's plan, as the gateway reported it. */
export function planOf(usage: UsageMetadataDto): PlanLimits {
  return isPlanName(usage.apiPlan) ? PLANS[usage.apiPlan] : PLANS.free;
}
