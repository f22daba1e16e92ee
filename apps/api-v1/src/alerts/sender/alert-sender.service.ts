import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataVersionSource, PLANS } from '@tcg/domain';
import {
  claimDueEvents,
  type AttemptOutcome,
  type ClaimedEvent,
  alertLane,
  deferDestination,
  disableUnentitledAlerts,
  evaluateAlerts,
  purgeSettledEvents,
  recordAttempt,
  releaseClaim,
  resealAlertSecrets,
} from '@tcg/persistence';
import { BACKGROUND_POOL, DATA_VERSION } from '@tcg/persistence/nest';
import type { Pool, PoolClient } from 'pg';
import { SettledJob } from '../../common/settled-job';
import { Environment } from '../../config/environment';
import { alertEventBody } from './alert-event';
import { DestinationGuard } from '../delivery/destination-guard';
import { shownAttemptError } from '../delivery/shown-outcome';
import { type AttemptError, sendWebhook, type SendOptions } from '../delivery/webhook-sender';
import { webhookHeaders } from '../delivery/webhook-signature';
import { afterFailure, type RetryPolicy } from './retry-policy';
import { SecretBox } from '../secrets/secret-box';

/**
 * Attempts under way at once in one instance: a continuous pool, each slot refilled as soon as its
 * attempt ends. Mostly sockets waiting on receivers, so cheap; what bounds one key is PER_KEY.
 */
const POOL_SIZE = 32;
/** Events of one key in flight at once across all instances: a key's slow receivers hold no more. */
const PER_KEY = 4;
/** Outcomes that count towards a destination's breaker: the ones that hold a slot for long. */
const TIMEOUTS: ReadonlySet<string> = new Set<AttemptError>(['connect_timeout', 'timeout']);
/** A new data version is evaluated this long after it came, with those that came meanwhile. */
const SETTLE_MS = 500;
/**
 * One attempt's deadlines (the connect one bounds the address lookup too) and how much of a
 * receiver's answer is read (the rest is discarded). Both fit in the lease (see the constructor).
 */
const ATTEMPT = { connectTimeoutMs: 5_000, responseTimeoutMs: 10_000, maxResponseBytes: 4_096 } as const;
/** Alerts each plan allows (`maxAlerts`), for disabling those past a downgraded key's cap. */
const ALERT_CAPS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(PLANS).map(([plan, limits]) => [plan, limits.maxAlerts]),
);
/**
 * How often alerts a key no longer entitles (revoked, or past a downgraded plan's cap) are
 * disabled, besides before each evaluation: the longest a downgraded key's extra alerts may still
 * send (a revoked key's send nothing from the moment it is revoked: claims skip them).
 */
const ENTITLEMENTS_EVERY_MS = 60_000;
/** How often settled events past their keeping are deleted. */
const PURGE_EVERY_MS = 3_600_000;
/** Shutdown waits this long for the work under way. */
const STOP_WAIT_MS = 5_000;

/**
 * Price alerts' background work in every api-v1 instance (docs/alerts.md): after each data
 * version has settled, evaluates every alert (one transaction, one evaluation at a time across
 * instances) and queues an event per alert whose rule became true; every ALERT_POLL_MS, claims
 * due events (each by one instance, for ALERT_LEASE_MS) and sends them, signed, recording each
 * attempt and when the next is due. On the background pool (BACKGROUND_POOL), outside the requests' one.
 */
@Injectable()
export class AlertSenderService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AlertSender');
  private readonly enabled: boolean;
  private readonly send: SendOptions;
  private readonly retry: RetryPolicy;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  /** The evaluations: after each data version has settled, one at a time in this instance. */
  private readonly evaluation: SettledJob;
  private pollTimer: NodeJS.Timeout | undefined;
  /** The claim under way, and whether another was asked for meanwhile. */
  private claiming: Promise<void> | undefined;
  private claimAgain = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly guard = new DestinationGuard();
  private stopped = false;
  private resealing: Promise<void> | undefined;
  private purgedAt = 0;
  private entitledAt = 0;

  constructor(
    env: Environment,
    @Inject(DATA_VERSION) versions: DataVersionSource,
    private readonly secrets: SecretBox,
    @Inject(BACKGROUND_POOL) private readonly pool: Pool,
  ) {
    this.enabled = env.ALERT_SENDER === 'on';
    this.leaseMs = env.ALERT_LEASE_MS;
    this.pollMs = env.ALERT_POLL_MS;
    this.retry = { baseMs: env.ALERT_RETRY_BASE_MS, windowMs: env.ALERT_RETRY_WINDOW_MS };
    // Lookup and connect, then the response: within a third and a half of the lease, so an attempt
    // ends before its lease does and another sender never sends the event while it still might.
    this.send = {
      allowPrivate: env.ALERT_PRIVATE_URLS === 'allow',
      connectTimeoutMs: Math.min(ATTEMPT.connectTimeoutMs, Math.floor(env.ALERT_LEASE_MS / 6)),
      responseTimeoutMs: Math.min(ATTEMPT.responseTimeoutMs, Math.floor(env.ALERT_LEASE_MS / 2)),
      maxResponseBytes: ATTEMPT.maxResponseBytes,
    };
    // From the first version not yet evaluated: versions that keep coming (an import's batches)
    // are taken together, and never put the evaluation off for longer than SETTLE_MS.
    this.evaluation = new SettledJob({
      versions,
      settleMs: SETTLE_MS,
      settleFrom: 'first',
      stopWaitMs: STOP_WAIT_MS,
      run: () => this.evaluateOnce(),
      onError: (error) =>
        this.logger.warn({ msg: 'alert evaluation failed', error: (error as Error).message }),
    });
  }

  onApplicationBootstrap(): void {
    // Every instance, sender or not: secrets not sealed with the current key are sealed with it
    // (plain ones from before sealing, an old key's after a rotation).
    this.resealing = this.reseal();
    if (!this.enabled) return;
    // Evaluates what changed while no instance was running (or before this one listened) too.
    this.evaluation.start();
    this.pollTimer = setInterval(() => this.deliver(), this.pollMs);
    this.pollTimer.unref();
    this.deliver();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    // The pool is PersistenceModule's: it closes it once what runs here has ended.
    await this.evaluation.stop([this.resealing, this.claiming, ...this.inFlight]);
  }

  /** Disables what keys no longer entitle (docs/alerts.md); logs what it did. */
  private async disableUnentitled(client: PoolClient): Promise<void> {
    this.entitledAt = Date.now();
    const result = await disableUnentitledAlerts(client, ALERT_CAPS);
    if (result.revoked > 0 || result.overCap > 0)
      this.logger.log({ msg: 'alerts disabled: key revoked or plan downgraded', ...result });
  }

  /** The reseal pass (docs/alerts.md, "Secrets at rest"); logs what it did, never throws. */
  private async reseal(): Promise<void> {
    try {
      const result = await this.withClient((client) => resealAlertSecrets(client, this.secrets));
      if (result.resealed > 0 || result.unreadable > 0)
        this.logger[result.unreadable > 0 ? 'warn' : 'log']({
          msg: 'alert secrets resealed',
          keyId: this.secrets.currentKeyId,
          ...result,
        });
    } catch (error) {
      this.logger.warn({ msg: 'alert secret reseal failed', error: (error as Error).message });
    }
  }

  private async evaluateOnce(): Promise<void> {
    const started = Date.now();
    const client = await this.pool.connect();
    try {
      await this.disableUnentitled(client);
      const result = await evaluateAlerts(client, (fired) => alertEventBody(fired, new Date()));
      if (result.fired > 0 || result.cleared > 0)
        this.logger.log({ msg: 'alerts evaluated', ...result, ms: Date.now() - started });
      if (Date.now() - this.purgedAt > PURGE_EVERY_MS) {
        this.purgedAt = Date.now();
        const purged = await purgeSettledEvents(client);
        if (purged > 0) this.logger.log({ msg: 'settled alert events purged', events: purged });
      }
    } finally {
      client.release();
    }
    this.deliver();
  }

  /**
   * Fills the pool's free slots: claims that many due events (fairly across keys, PER_KEY at most
   * of one key in flight, none bound for a closed destination) and starts each at once. Called on
   * every poll and whenever an attempt ends; one claim at a time, another straight after it if
   * asked for meanwhile or if it filled every slot it was asked for (more may be due).
   */
  private deliver(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    const free = POOL_SIZE - this.inFlight.size;
    if (free <= 0) return;
    this.claimAgain = false;
    // Before the claim when due (and so before the first one): a downgraded key's extra alerts
    // are disabled before any of their events can be claimed.
    const entitled =
      Date.now() - this.entitledAt > ENTITLEMENTS_EVERY_MS
        ? this.withClient((client) => this.disableUnentitled(client)).catch((error: unknown) =>
            this.logger.warn({ msg: 'alert entitlement check failed', error: (error as Error).message }),
          )
        : Promise.resolve();
    this.claiming = entitled
      .then(() => this.claimAndStart(free))
      .catch((error: unknown) => {
        this.logger.warn({ msg: 'alert claim failed', error: (error as Error).message });
        return false;
      })
      .then((full) => {
        this.claiming = undefined;
        if (full || this.claimAgain) this.deliver();
      });
  }

  /** True: every slot asked for was filled. */
  private async claimAndStart(free: number): Promise<boolean> {
    const events = await this.withClient((client) =>
      claimDueEvents(client, free, this.leaseMs, {
        perKey: PER_KEY,
        skipLanes: this.guard.closed(),
      }),
    );
    for (const event of events) {
      const admitted = this.guard.admit(alertLane(event.keyId, event.destination));
      const work = admitted.ok
        ? this.attemptAndRecord(event)
        : this.withClient((client) => releaseClaim(client, event, new Date(admitted.retryAt))).then(
            () => undefined,
          );
      const tracked: Promise<void> = work
        .catch((error: unknown) =>
          this.logger.warn({
            msg: 'alert attempt not recorded',
            eventId: event.id,
            error: (error as Error).message,
          }),
        )
        .finally(() => {
          this.inFlight.delete(tracked);
          this.deliver();
        });
      this.inFlight.add(tracked);
    }
    return events.length === free;
  }

  private async attemptAndRecord(event: ClaimedEvent): Promise<void> {
    const outcome = await this.attempt(event);
    const openUntil = this.guard.record(
      alertLane(event.keyId, event.destination),
      outcome.detail !== null && TIMEOUTS.has(outcome.detail),
    );
    if (openUntil !== undefined) {
      const deferred = await this.withClient((client) =>
        deferDestination(client, event.keyId, event.destination, new Date(openUntil)),
      );
      this.logger.warn({
        msg: 'alert destination breaker open',
        destination: event.destination,
        keyId: event.keyId,
        until: new Date(openUntil).toISOString(),
        deferred,
      });
    }
    const after = outcome.ok
      ? undefined
      : afterFailure(event.attempt, event.createdAt, new Date(), this.retry);
    const recorded = await this.withClient((client) => recordAttempt(client, event, outcome, after));
    if (!recorded) this.logger.warn({ msg: 'alert attempt outlived its lease', eventId: event.id });
    else if (after && 'giveUp' in after)
      this.logger.warn({ msg: 'alert disabled', alertId: event.alertId, reason: after.giveUp });
  }

  private async withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  }

  /**
   * One attempt; never throws (a row that cannot be signed fails like any attempt, and is retried).
   * `detail` is the attempt's own error (the breaker's); `error`, what is recorded, its shown form.
   */
  private async attempt(event: ClaimedEvent): Promise<AttemptOutcome & { detail: string | null }> {
    const at = new Date();
    try {
      const headers = webhookHeaders(
        this.secrets.open(event.secret),
        event.id,
        Math.floor(at.getTime() / 1000),
        event.payload,
      );
      const result = await sendWebhook(new URL(event.url), headers, event.payload, this.send);
      return { at, ...result, error: shownAttemptError(result.error), detail: result.error };
    } catch (error) {
      // For the operator, not the subscriber: which key is missing, say.
      this.logger.warn({
        msg: 'alert attempt failed in the sender',
        eventId: event.id,
        error: (error as Error).message,
      });
      const durationMs = Date.now() - at.getTime();
      return {
        at,
        ok: false,
        status: null,
        durationMs,
        error: shownAttemptError('internal_error'),
        detail: null,
      };
    }
  }
}
