import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { decodeUsage, INTERNAL_HEADERS, UsageReport } from '@tcg/domain';
import type { Request } from 'express';

/** v1 `_metadata` (interface.md UsageMetadata plus `apiDailyRequestsRemaining`, decisions.md). */
export interface UsageMetadataDto {
  apiPlan: string;
  apiRequestLimit: number;
  apiRequestsUsed: number;
  apiRequestsRemaining: number;
  apiDailyLimit: number;
  apiDailyRequestsUsed: number;
  apiDailyRequestsRemaining: number;
  apiRateLimit: number;
}

export function toUsageMetadata(u: UsageReport): UsageMetadataDto {
  return {
    apiPlan: u.plan,
    apiRequestLimit: u.month.limit,
    apiRequestsUsed: u.month.used,
    apiRequestsRemaining: Math.max(0, u.month.limit - u.month.used),
    apiDailyLimit: u.day.limit,
    apiDailyRequestsUsed: u.day.used,
    apiDailyRequestsRemaining: Math.max(0, u.day.limit - u.day.used),
    apiRateLimit: u.minute.limit,
  };
}

/**
 * The caller's usage after this request, as the gateway reported it (the service never counts).
 * Requests reach a controller only with the gateway's credential, and the gateway always reports.
 */
export const Usage = createParamDecorator((_data: unknown, ctx: ExecutionContext): UsageMetadataDto => {
  const report = decodeUsage(ctx.switchToHttp().getRequest<Request>().header(INTERNAL_HEADERS.usage));
  if (!report) throw new Error('the gateway sent no usage report');
  return toUsageMetadata(report);
});
