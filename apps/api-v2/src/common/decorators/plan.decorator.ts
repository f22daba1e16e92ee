import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { isPlanName, PlanLimits, PLANS } from '@tcg/domain';
import { decodeUsage, INTERNAL_HEADERS } from '@tcg/http-service';
import type { Request } from 'express';

/**
 * The caller's plan, as the gateway reported it with the usage (the service never counts; v2 has
 * no usage body, the gateway sends RateLimit headers). Sizes `limit` to the plan.
 */
export const Plan = createParamDecorator((_data: unknown, ctx: ExecutionContext): PlanLimits => {
  const report = decodeUsage(ctx.switchToHttp().getRequest<Request>().header(INTERNAL_HEADERS.usage));
  if (!report) throw new Error('the gateway sent no usage report');
  return isPlanName(report.plan) ? PLANS[report.plan] : PLANS.free;
});
