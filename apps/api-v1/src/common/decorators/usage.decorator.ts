import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { PLAN_NAMES } from '@tcg/domain';
import { decodeUsage, INTERNAL_HEADERS, UsageReport } from '@tcg/http-service';
import type { Request } from 'express';

/** v1 `_metadata` (docs/spec/interface.md UsageMetadata plus `apiDailyRequestsRemaining`, docs/spec/decisions.md). */
export class UsageMetadataDto {
  @ApiProperty({
    description: 'The plan of the API key.',
    enum: PLAN_NAMES,
    example: 'starter',
  })
  apiPlan!: string;

  @ApiProperty({ type: 'integer', description: 'Requests allowed per UTC month.', example: 30000 })
  apiRequestLimit!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Requests counted this UTC month, this one included.',
    example: 1250,
  })
  apiRequestsUsed!: number;

  @ApiProperty({ type: 'integer', description: 'Requests left this UTC month.', example: 28750 })
  apiRequestsRemaining!: number;

  @ApiProperty({ type: 'integer', description: 'Requests allowed per UTC day.', example: 2000 })
  apiDailyLimit!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Requests counted this UTC day, this one included.',
    example: 87,
  })
  apiDailyRequestsUsed!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Requests left this UTC day (decisions.md: the official client reads it).',
    example: 1913,
  })
  apiDailyRequestsRemaining!: number;

  @ApiProperty({ type: 'integer', description: 'Requests allowed per clock minute.', example: 60 })
  apiRateLimit!: number;
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
