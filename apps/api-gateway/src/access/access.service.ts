import { Inject, Injectable } from '@nestjs/common';
import { ApiKeyRecord, PLANS, requestCost, UsageReport } from '@tcg/domain';
import type { IncomingMessage } from 'node:http';
import { QuotaDecision, QuotaStore, QuotaWindow } from '../limits/quota';
import { ApiKeyCache } from './api-key-cache.service';
import { AuthFailureThrottle } from './auth-failure-throttle.service';

export const QUOTA_STORE = Symbol('QUOTA_STORE');

export type Admission =
  | { readonly admitted: true; readonly key: ApiKeyRecord; readonly usage: UsageReport }
  | {
      readonly admitted: false;
      readonly status: 401 | 429;
      readonly code:
        | 'MISSING_API_KEY'
        | 'INVALID_API_KEY'
        | 'RATE_LIMIT_EXCEEDED'
        | 'DAILY_LIMIT_EXCEEDED'
        | 'REQUEST_LIMIT_EXCEEDED';
      readonly message: string;
      readonly retryAfterSeconds?: number;
      readonly usage?: UsageReport;
    };

const CODE_OF_WINDOW: Record<
  QuotaWindow,
  'RATE_LIMIT_EXCEEDED' | 'DAILY_LIMIT_EXCEEDED' | 'REQUEST_LIMIT_EXCEEDED'
> = {
  minute: 'RATE_LIMIT_EXCEEDED',
  day: 'DAILY_LIMIT_EXCEEDED',
  month: 'REQUEST_LIMIT_EXCEEDED',
};
const NAME_OF_WINDOW: Record<QuotaWindow, string> = { minute: 'per-minute', day: 'daily', month: 'monthly' };

/** Who is calling, and may they: the key, then the plan's quotas at the request's cost. */
@Injectable()
export class AccessService {
  constructor(
    private readonly keys: ApiKeyCache,
    private readonly failures: AuthFailureThrottle,
    @Inject(QUOTA_STORE) private readonly quotas: QuotaStore,
  ) {}

  async admit(req: IncomingMessage, url: URL): Promise<Admission> {
    const presented = req.headers['x-api-key'];
    const clearKey = Array.isArray(presented) ? presented[0] : presented;
    const key = clearKey ? await this.keys.lookup(clearKey) : null;
    if (!key) {
      const blockedFor = await this.failures.recordFailure(req.socket.remoteAddress ?? 'unknown');
      if (blockedFor !== undefined) {
        return {
          admitted: false,
          status: 429,
          code: 'RATE_LIMIT_EXCEEDED',
          message: 'Too many requests with a missing or invalid API key from this address.',
          retryAfterSeconds: blockedFor,
        };
      }
      return clearKey
        ? { admitted: false, status: 401, code: 'INVALID_API_KEY', message: 'The API key is not valid.' }
        : {
            admitted: false,
            status: 401,
            code: 'MISSING_API_KEY',
            message: 'Send your API key in the x-api-key header.',
          };
    }

    const plan = PLANS[key.plan];
    const cost = requestCost(url.pathname, url.searchParams);
    const decision = await this.quotas.consume(
      key.id,
      cost,
      { minute: plan.perMinute, day: plan.perDay, month: plan.perMonth },
      Date.now(),
    );
    const usage = usageReport(key.plan, decision);
    if (decision.admitted) return { admitted: true, key, usage };
    const window = decision.exceeded!;
    return {
      admitted: false,
      status: 429,
      code: CODE_OF_WINDOW[window],
      message: `The ${NAME_OF_WINDOW[window]} limit of the ${key.plan} plan is used up (this request costs ${cost}).`,
      retryAfterSeconds: decision.retryAfterSeconds,
      usage,
    };
  }
}

function usageReport(plan: string, d: QuotaDecision): UsageReport {
  return { plan, minute: d.usage.minute, day: d.usage.day, month: d.usage.month };
}
