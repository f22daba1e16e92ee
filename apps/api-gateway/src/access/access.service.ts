import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ApiKeyRecord, ApiKeySigner, PLANS, requestCost } from '@tcg/domain';
import { UsageReport } from '@tcg/http-service';
import { API_KEYS, type ApiKeyRepository } from '@tcg/persistence';
import type { IncomingMessage } from 'node:http';
import { apiKeyPreviousSecrets, Environment } from '../config/environment';
import { QuotaDecision, QuotaStore, QuotaWindow } from '../limits/quota';
import { ApiKeyChecker, LegacyKeySet } from './api-key-check.service';
import { ApiKeyCache } from './api-key-cache.service';
import { AuthFailureThrottle } from './auth-failure-throttle.service';
import { ClientAddressResolver, throttleSubject } from './client-address';
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
      /**
       * Set when the refusal says the key is bad (a 401, or the 429 of an address blocked for bad
       * keys): the client address it came from, as the auth-failure throttle counts it. Its answer
       * is held (BadKeyDelay); no other refusal's is.
       */
      readonly badKeyFrom?: string;
    };

export type Refusal = Extract<Admission, { admitted: false }>;

/** A key checked and looked up, and nothing charged (see `authenticate`). */
export type Authentication = { readonly admitted: true; readonly key: ApiKeyRecord } | Refusal;

/**
 * Asked with the caller's key before any quota unit is charged; a refusal it returns is the answer.
 * Async: a place counted in the shared store (a download's lease) is taken here too.
 */
export type BeforeCharge = (key: ApiKeyRecord) => Promise<Refusal | undefined>;

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
 * A key of the legacy shape before the legacy keys are read: it may be a customer's valid key, so
 * not a 401 (which says the key is wrong, and clients do not retry); nor a lookup, which a flood of
 * made-up keys could then force. Not counted as a failure. Readiness says not ready meanwhile.
 */
const legacyNotReadYet = (): Refusal => ({
  ...unavailable(),
  message: 'Keys of this format cannot be checked yet (the gateway is starting); try again shortly.',
});

/**
 * Who is calling, and may they. Cheapest first, so a hostile client pays for its own refusals:
 * 1. the client address is the TCP peer, or the right-most untrusted hop when the peer is a
 *    trusted proxy (ClientAddressResolver, TRUSTED_PROXIES);
 * 2. a missing key, one not of a shape keys are issued in, or one that fails the in-memory check
 *    (ApiKeyChecker: a `checked` key's HMAC, a `legacy` key's digest among the legacy keys) is a
 *    401 counted as a failure in this instance's memory, without any I/O — or, from an address
 *    blocked for repeated failures, a 429, likewise; a `legacy` key before the legacy keys are
 *    read is a 503 with Retry-After, without I/O and not counted;
 * 3. only then the key lookup (cached; see ApiKeyCache), and the plan's quotas at the request's
 *    cost. A blocked address's plausible keys are still looked up (in the part of the lookup
 *    budget not reserved for other addresses) and served when valid: the block throttles
 *    failures, not the customers who share the address; its unknown keys get 429. An unknown key
 *    that passed the check cost a lookup, so it is counted where every instance sees it (Redis).
 * `admit` never rejects: anything unexpected is logged and becomes a 503 decision. A refusal that
 * says the key is bad (401, or the 429 of a blocked address) is marked `badKeyFrom`: its answer is
 * held AUTH_FAILURE_DELAY_MS (BadKeyDelay), so that a flood of them sent as fast as it is answered
 * cannot take the gateway's CPU.
 */
@Injectable()
export class AccessService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Access');
  private readonly legacyKeys: LegacyKeySet;
  private readonly checker: ApiKeyChecker;

  /**
   * The checker is made here, from the validated environment and the key repository (both
   * global), so that the access feature owns its whole admission path.
   */
  constructor(
    private readonly keys: ApiKeyCache,
    private readonly failures: AuthFailureThrottle,
    @Inject(QUOTA_STORE) private readonly quotas: QuotaStore,
    private readonly addresses: ClientAddressResolver,
    env: Environment,
    @Inject(API_KEYS) keyRepository: Pick<ApiKeyRepository, 'activeLegacyKeyHashes'>,
  ) {
    this.legacyKeys = new LegacyKeySet(() => keyRepository.activeLegacyKeyHashes(), {
      refreshMs: env.LEGACY_KEYS_REFRESH_MS,
      timeoutMs: env.KEY_LOOKUP_TIMEOUT_MS,
      firstTimeoutMs: env.LEGACY_KEYS_LOAD_TIMEOUT_MS,
      onError: (error) =>
        this.logger.warn({
          msg: this.legacyKeys.loaded
            ? 'legacy key digests not read again; the last ones read are kept'
            : 'legacy key digests not read; legacy-shaped keys get 503 until they are',
          error: error instanceof Error ? error.message : String(error),
        }),
      onLoad: (size) => this.logger.debug({ msg: 'legacy key digests read', size }),
    });
    this.checker = new ApiKeyChecker(
      new ApiKeySigner(env.API_KEY_SECRET, apiKeyPreviousSecrets(env)),
      this.legacyKeys,
    );
    if (env.API_KEY_SECRET === undefined)
      this.logger.log('API_KEY_SECRET is not set: key checks use the public default (a checksum, not a MAC)');
  }

  /** Reads the legacy keys before the gateway listens (within LEGACY_KEYS_LOAD_TIMEOUT_MS). */
  async onModuleInit(): Promise<void> {
    await this.legacyKeys.start();
  }

  /** Whether the legacy keys have been read: until then the gateway is not ready (ReadinessService). */
  get legacyKeysLoaded(): boolean {
    return this.legacyKeys.loaded;
  }

  onModuleDestroy(): void {
    this.legacyKeys.stop();
    this.keys.stop();
  }

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

  /**
   * Steps 1 to 3 without the charge, for the MCP endpoint (`/mcp`): the key is checked, looked up
   * and its failures counted exactly as for an API request, but no quota unit moves, because each
   * tool call the MCP server makes is itself an API request under the same key and is charged
   * then. Charging the transport request as well would count every tool call twice. Never rejects.
   */
  async authenticate(req: IncomingMessage, beforeAdmit?: BeforeCharge): Promise<Authentication> {
    try {
      return await this.identify(req, beforeAdmit);
    } catch (error) {
      this.logger.error({
        msg: 'authentication failed',
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
    const identified = await this.identify(req, beforeCharge);
    if (!identified.admitted) return identified;
    const key = identified.key;
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

  /** The caller's key, checked and looked up (steps 1 to 3), or the refusal. */
  private async identify(
    req: IncomingMessage,
    beforeCharge: BeforeCharge | undefined,
  ): Promise<Authentication> {
    const address = this.addresses.of(req);
    const presented = req.headers['x-api-key'];
    const clearKey = Array.isArray(presented) ? presented.join(',') : presented;
    const check = this.checker.check(clearKey);

    if (check === 'unverifiable') return legacyNotReadYet();
    const blockedFor = this.failures.blockedFor(address);
    if (check !== 'plausible' || clearKey === undefined) {
      if (blockedFor !== undefined) return tooManyFailures(blockedFor, address);
      return this.refuseInMemory(address, clearKey ? 'INVALID_API_KEY' : 'MISSING_API_KEY');
    }

    const found = await this.keys.lookup(clearKey, blockedFor !== undefined);
    if (found.kind === 'unavailable') return unavailable();
    if (found.kind === 'unknown')
      return blockedFor !== undefined
        ? tooManyFailures(blockedFor, address)
        : this.refuse(address, 'INVALID_API_KEY');
    const key = found.record;
    const refused = await beforeCharge?.(key);
    if (refused) return refused;
    return { admitted: true, key };
  }

  /** An unknown key that was looked up: counted against the address in the shared store. */
  private async refuse(address: string, code: 'INVALID_API_KEY'): Promise<Refusal> {
    const blockedFor = await this.failures.recordFailure(address);
    return blockedFor !== undefined ? tooManyFailures(blockedFor, address) : invalidKey(code, address);
  }

  /**
   * A key refused from memory: counted against the address in this instance's memory only, so
   * that it costs no I/O at all. It could never have been valid, so a guesser learns nothing from
   * it and sharing its count between instances would buy nothing.
   */
  private refuseInMemory(address: string, code: 'MISSING_API_KEY' | 'INVALID_API_KEY'): Refusal {
    const blockedFor = this.failures.recordLocalFailure(address);
    return blockedFor !== undefined ? tooManyFailures(blockedFor, address) : invalidKey(code, address);
  }
}

function invalidKey(code: 'MISSING_API_KEY' | 'INVALID_API_KEY', address: string): Refusal {
  const badKeyFrom = throttleSubject(address);
  return code === 'INVALID_API_KEY'
    ? { admitted: false, status: 401, code, message: 'The API key is not valid.', badKeyFrom }
    : {
        admitted: false,
        status: 401,
        code,
        message: 'Send your API key in the x-api-key header.',
        badKeyFrom,
      };
}

function tooManyFailures(retryAfterSeconds: number, address: string): Refusal {
  return {
    admitted: false,
    status: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    message: 'Too many requests with a missing or invalid API key from this address.',
    retryAfterSeconds,
    badKeyFrom: throttleSubject(address),
  };
}

function usageReport(plan: string, d: QuotaDecision): UsageReport {
  return { plan, minute: d.usage.minute, day: d.usage.day, month: d.usage.month };
}
