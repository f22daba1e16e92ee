import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiKeyRecord, isWellFormedApiKey, PLANS, requestCost } from '@tcg/domain';
import { UsageReport } from '@tcg/http-service';
import type { IncomingMessage } from 'node:http';
import { QuotaDecision, QuotaStore, QuotaWindow } from '../limits/quota';
import { ApiKeyCache } from './api-key-cache.service';
import { AuthFailureThrottle } from './auth-failure-throttle.service';
import { ClientAddressResolver } from './client-address';
import type { RequestTarget } from '../common/request-target';

export const QUOTA_STORE = Symbol('QUOTA_STORE');

export type Admission =
  | {
      readonly admitted: true;
      readonly key: ApiKeyRecord;
      readonly usage: UsageReport;
      /** Units this request was charged. */
      readonly cost: number;
    }
  | {
      readonly admitted: false;
      readonly status: 401 | 429 | 503;
      readonly code:
        | 'MISSING_API_KEY'
        | 'INVALID_API_KEY'
        | 'RATE_LIMIT_EXCEEDED'
        | 'DAILY_LIMIT_EXCEEDED'
        | 'REQUEST_LIMIT_EXCEEDED'
        | 'SERVICE_UNAVAILABLE';
      readonly message: string;
      readonly retryAfterSeconds?: number;
      readonly usage?: UsageReport;
    };

export type Refusal = Extract<Admission, { admitted: false }>;

/** Asked with the caller's key before any quota unit is charged; a refusal it returns is the answer. */
export type BeforeCharge = (key: ApiKeyRecord) => Refusal | undefined;

/** The parts of the guard's one parse of the request target that the cost is read from. */
type CostedTarget = Pick<RequestTarget, 'path' | 'query'>;

const CODE_OF_WINDOW: Record<
  QuotaWindow,
  'RATE_LIMIT_EXCEEDED' | 'DAILY_LIMIT_EXCEEDED' | 'REQUEST_LIMIT_EXCEEDED'
> = {
  minute: 'RATE_LIMIT_EXCEEDED',
  day: 'DAILY_LIMIT_EXCEEDED',
  month: 'REQUEST_LIMIT_EXCEEDED',
};
const NAME_OF_WINDOW: Record<QuotaWindow, string> = { minute: 'per-minute', day: 'daily', month: 'monthly' };

/** Seconds a client is asked to wait when the gateway cannot check its key right now. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const unavailable = (): Refusal => ({
  admitted: false,
  status: 503,
  code: 'SERVICE_UNAVAILABLE',
  message: 'API keys cannot be checked right now; try again shortly.',
  retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
});

/**
 * Who is calling, and may they. Cheapest first, so a hostile client pays for its own refusals:
 * 1. the client address is the TCP peer, or the right-most untrusted hop when the peer is a
 *    trusted proxy (ClientAddressResolver, TRUSTED_PROXIES);
 * 2. a missing key, or one not of the shape keys are generated in, is a 401 counted as a failure,
 *    without hashing or querying — or, from an address blocked for repeated failures, a 429
 *    without any I/O;
 * 3. only then the key lookup (cached; see ApiKeyCache), and the plan's quotas at the request's
 *    cost. A blocked address's well-formed keys are still looked up (in the part of the lookup
 *    budget not reserved for other addresses) and served when valid: the block throttles
 *    failures, not the customers who share the address; its unknown keys get 429.
 * `admit` never rejects: anything unexpected is logged and becomes a 503 decision.
 */
@Injectable()
export class AccessService {
  private readonly logger = new Logger('Access');

  constructor(
    private readonly keys: ApiKeyCache,
    private readonly failures: AuthFailureThrottle,
    @Inject(QUOTA_STORE) private readonly quotas: QuotaStore,
    private readonly addresses: ClientAddressResolver,
  ) {}

  async admit(req: IncomingMessage, target: CostedTarget, beforeCharge?: BeforeCharge): Promise<Admission> {
    try {
      return await this.decide(req, target, beforeCharge);
    } catch (error) {
      this.logger.error({
        msg: 'admission failed',
        error: error instanceof Error ? error.stack : String(error),
      });
      return unavailable();
    }
  }

  private async decide(
    req: IncomingMessage,
    target: CostedTarget,
    beforeCharge: BeforeCharge | undefined,
  ): Promise<Admission> {
    const address = this.addresses.of(req);
    const presented = req.headers['x-api-key'];
    const clearKey = Array.isArray(presented) ? presented.join(',') : presented;
    const wellFormed = clearKey !== undefined && isWellFormedApiKey(clearKey);

    const blockedFor = this.failures.blockedFor(address);
    if (!wellFormed) {
      if (blockedFor !== undefined) return tooManyFailures(blockedFor);
      return this.refuse(address, clearKey ? 'INVALID_API_KEY' : 'MISSING_API_KEY');
    }

    const found = await this.keys.lookup(clearKey, blockedFor !== undefined);
    if (found.kind === 'unavailable') return unavailable();
    if (found.kind === 'unknown')
      return blockedFor !== undefined ? tooManyFailures(blockedFor) : this.refuse(address, 'INVALID_API_KEY');
    const key = found.record;
    const refused = beforeCharge?.(key);
    if (refused) return refused;

    const plan = PLANS[key.plan];
    const cost = requestCost(target.path, new URLSearchParams(target.query));
    const decision = await this.quotas.consume(
      key.id,
      cost,
      { minute: plan.perMinute, day: plan.perDay, month: plan.perMonth },
      Date.now(),
    );
    const usage = usageReport(key.plan, decision);
    if (decision.admitted) return { admitted: true, key, usage, cost };
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

  /** A missing or invalid key: counted against the address, 429 once it is over its allowance. */
  private async refuse(address: string, code: 'MISSING_API_KEY' | 'INVALID_API_KEY'): Promise<Refusal> {
    const blockedFor = await this.failures.recordFailure(address);
    if (blockedFor !== undefined) return tooManyFailures(blockedFor);
    return code === 'INVALID_API_KEY'
      ? { admitted: false, status: 401, code, message: 'The API key is not valid.' }
      : { admitted: false, status: 401, code, message: 'Send your API key in the x-api-key header.' };
  }
}

function tooManyFailures(retryAfterSeconds: number): Refusal {
  return {
    admitted: false,
    status: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    message: 'Too many requests with a missing or invalid API key from this address.',
    retryAfterSeconds,
  };
}

function usageReport(plan: string, d: QuotaDecision): UsageReport {
  return { plan, minute: d.usage.minute, day: d.usage.day, month: d.usage.month };
}
