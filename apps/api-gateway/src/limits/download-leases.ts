import { randomUUID } from 'node:crypto';
import type { DownloadLeaseRepository } from '@tcg/persistence';
import type { Failover } from './failover';
import type { QuotaRedisClient } from './redis-quota.store';

/**
 * Where a key's downloads in progress are counted across gateway instances. A lease expires
 * unless renewed: an instance that died without giving its places back frees them within the
 * lease's time to live.
 */
export interface DownloadLeaseStore {
  /**
   * Takes one of the key's `limit` places for `ttlMs`; false when live leases hold them all. `nowMs`
   * is the instance's clock, for stores that have none of their own (Redis uses its server's).
   */
  take(keyId: string, leaseId: string, limit: number, nowMs: number, ttlMs: number): Promise<boolean>;
  renew(keyId: string, leaseId: string, nowMs: number, ttlMs: number): Promise<void>;
  release(keyId: string, leaseId: string): Promise<void>;
}

/** Named so they cannot clash with another `defineCommand` on the shared client. */
const TAKE_COMMAND = 'tcgDownloadLeaseTake';
const RENEW_COMMAND = 'tcgDownloadLeaseRenew';

/**
 * The Redis server's clock in ms: every instance scores leases on the one clock, so an instance
 * whose clock runs late cannot expire another's leases early (nor its own late).
 */
const SERVER_NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** A sorted set per key, its leases scored by their expiry: the expired are dropped, then counted. */
const TAKE_SCRIPT = `${SERVER_NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/** A lease still held is moved to `now + ttl`; one already dropped is not brought back. */
const RENEW_SCRIPT = `${SERVER_NOW}
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

type LeaseScripts = {
  [TAKE_COMMAND](key: string, ttlMs: number, limit: number, leaseId: string): Promise<number>;
  [RENEW_COMMAND](key: string, ttlMs: number, leaseId: string): Promise<number>;
};

/**
 * Leases in Redis: `downloads:{<key id>}` (one slot per key on a cluster), one script per take or
 * renewal, on the server's clock (the instance's `nowMs` is not used).
 */
export class RedisDownloadLeaseStore implements DownloadLeaseStore {
  private readonly scripts: LeaseScripts;

  constructor(private readonly client: QuotaRedisClient) {
    client.defineCommand(TAKE_COMMAND, { numberOfKeys: 1, lua: TAKE_SCRIPT });
    client.defineCommand(RENEW_COMMAND, { numberOfKeys: 1, lua: RENEW_SCRIPT });
    this.scripts = client as unknown as LeaseScripts;
  }

  async take(keyId: string, leaseId: string, limit: number, _nowMs: number, ttlMs: number): Promise<boolean> {
    return (await this.scripts[TAKE_COMMAND](setOf(keyId), ttlMs, limit, leaseId)) === 1;
  }

  async renew(keyId: string, leaseId: string, _nowMs: number, ttlMs: number): Promise<void> {
    await this.scripts[RENEW_COMMAND](setOf(keyId), ttlMs, leaseId);
  }

  async release(keyId: string, leaseId: string): Promise<void> {
    await this.client.zrem(setOf(keyId), leaseId);
  }
}

const setOf = (keyId: string) => `downloads:{${keyId}}`;

/** Leases in PostgreSQL, for a gateway without Redis (see `DownloadLeaseRepository`). */
export class PostgresDownloadLeaseStore implements DownloadLeaseStore {
  constructor(private readonly leases: DownloadLeaseRepository) {}

  take(keyId: string, leaseId: string, limit: number, nowMs: number, ttlMs: number): Promise<boolean> {
    return this.leases.take(keyId, leaseId, limit, new Date(nowMs + ttlMs), new Date(nowMs));
  }

  renew(keyId: string, leaseId: string, nowMs: number, ttlMs: number): Promise<void> {
    return this.leases.renew(keyId, leaseId, new Date(nowMs + ttlMs));
  }

  release(keyId: string, leaseId: string): Promise<void> {
    return this.leases.release(keyId, leaseId);
  }
}

/** This instance's leases alone: what counts while the shared store is away. */
export class MemoryDownloadLeaseStore {
  private readonly held = new Map<string, Map<string, number>>();

  takeNow(keyId: string, leaseId: string, limit: number, nowMs: number, ttlMs: number): boolean {
    const leases = this.held.get(keyId) ?? new Map<string, number>();
    for (const [id, until] of leases) if (until <= nowMs) leases.delete(id);
    if (leases.size >= limit) return false;
    leases.set(leaseId, nowMs + ttlMs);
    this.held.set(keyId, leases);
    return true;
  }

  renewNow(keyId: string, leaseId: string, nowMs: number, ttlMs: number): void {
    const leases = this.held.get(keyId);
    if (leases?.has(leaseId)) leases.set(leaseId, nowMs + ttlMs);
  }

  releaseNow(keyId: string, leaseId: string): void {
    const leases = this.held.get(keyId);
    leases?.delete(leaseId);
    if (leases?.size === 0) this.held.delete(keyId);
  }
}

/** A download's place among its key's, until `release` (idempotent). */
export interface DownloadLease {
  release(): void;
}

/** The longest a take waits for the key's releases on their way (`DownloadLeases.releasesOf`). */
const RELEASE_WAIT_MS = 1000;

/**
 * A key's downloads in progress across every gateway instance, at most its plan's
 * `concurrentDownloads`: each takes a lease in the shared store (Redis, else PostgreSQL), renewed
 * every third of its time to live while the download runs and given back when it ends. While the
 * shared store is away (the quotas' `Failover`), leases are taken in this instance's memory: the
 * limit then holds per instance, as before. A take the shared store answered too late is given
 * back there; a renewal or release that fails is left to the lease's expiry.
 */
export class DownloadLeases {
  /** This instance's releases in the shared store not yet answered, per key. */
  private readonly releasing = new Map<string, Set<Promise<void>>>();

  constructor(
    private readonly shared: DownloadLeaseStore,
    private readonly memory: MemoryDownloadLeaseStore,
    private readonly failover: Failover,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** One of the key's `limit` places, or undefined when its downloads in progress hold them all. */
  async take(keyId: string, limit: number): Promise<DownloadLease | undefined> {
    await this.releasesOf(keyId);
    const leaseId = randomUUID();
    let where: 'shared' | 'memory' = 'shared';
    let asked: Promise<boolean> | undefined;
    const taken = await this.failover.run(
      () => (asked = this.shared.take(keyId, leaseId, limit, this.clock(), this.ttlMs)),
      () => {
        where = 'memory';
        if (asked) this.giveBackShared(keyId, leaseId, asked);
        return this.memory.takeNow(keyId, leaseId, limit, this.clock(), this.ttlMs);
      },
    );
    if (!taken) return undefined;
    const renewal = setInterval(
      () => {
        if (where === 'memory') this.memory.renewNow(keyId, leaseId, this.clock(), this.ttlMs);
        else this.shared.renew(keyId, leaseId, this.clock(), this.ttlMs).catch(() => undefined);
      },
      Math.max(1, Math.floor(this.ttlMs / 3)),
    );
    renewal.unref();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        if (where === 'memory') this.memory.releaseNow(keyId, leaseId);
        else
          this.track(
            keyId,
            this.shared.release(keyId, leaseId).catch(() => undefined),
          );
      },
    };
  }

  /**
   * A client that downloads one file after another sends the next request as soon as it has the
   * last byte, while the lease of the one before is still being deleted (a commit in PostgreSQL):
   * counted as live, it refused the next download of a key with one place (429). A take first
   * waits for this instance's releases of the key on their way, RELEASE_WAIT_MS at most.
   */
  private async releasesOf(keyId: string): Promise<void> {
    const pending = this.releasing.get(keyId);
    if (!pending) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((done) => (timer = setTimeout(done, RELEASE_WAIT_MS)));
    await Promise.race([Promise.all(pending), deadline]);
    clearTimeout(timer);
  }

  private track(keyId: string, release: Promise<void>): void {
    let pending = this.releasing.get(keyId);
    if (!pending) this.releasing.set(keyId, (pending = new Set()));
    pending.add(release);
    void release.finally(() => {
      pending.delete(release);
      if (pending.size === 0 && this.releasing.get(keyId) === pending) this.releasing.delete(keyId);
    });
  }

  /**
   * A take the shared store did not answer in time may have been done there all the same: its
   * lease would hold one of the key's places until it expired, beside the one counted in memory.
   * Given back at once (after the take on the same connection), and again if the take's late
   * answer says it was taken. Best effort: what fails is left to the lease's expiry.
   */
  private giveBackShared(keyId: string, leaseId: string, asked: Promise<boolean>): void {
    const release = () => void this.shared.release(keyId, leaseId).catch(() => undefined);
    release();
    asked.then(
      (taken) => taken && release(),
      () => undefined,
    );
  }
}
