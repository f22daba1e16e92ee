import type { Failover } from '../limits/failover';
import type { QuotaRedisClient } from '../limits/redis-quota.store';
import { throttleSubject } from './client-address';

const WINDOW_MS = 60_000;
/** Addresses tracked in memory at most; past it the oldest are dropped (they only lose their count). */
const MAX_TRACKED_ADDRESSES = 100_000;

/**
 * Counts one failure in a 60 s window opened by the address's first failure.
 * KEYS: the counter (a single key, so a cluster never sees CROSSSLOT). ARGV: window in ms.
 * Reply: { failures, ms until the window closes }.
 */
const FAILURE_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return {n, redis.call('PTTL', KEYS[1])}
`;
const COMMAND = 'tcgAuthFailure';

interface Window {
  count: number;
  readonly endMs: number;
}

/**
 * Slows down one client address that keeps sending missing or invalid keys: past
 * AUTH_FAILURES_PER_MINUTE failures it gets 429s until a minute after its first failure, instead
 * of a free oracle for key guesses. Failures are counted in Redis when the gateway has it (shared
 * by every instance; a server or a cluster), in memory otherwise and while Redis is away (the
 * shared `Failover`).
 *
 * Whether an address is blocked is answered from memory only (`blockedFor`), before any I/O: a
 * block counted in Redis is mirrored here when a failure reports it, and a blocked address costs
 * no further Redis call at all. Blocks seen by another instance reach this one at the address's
 * next failure here. Failures the gateway found without any I/O (a key that fails its in-memory
 * check) are counted here only (`recordLocalFailure`), so that they stay free.
 *
 * An IPv6 client is counted by its /64 (`throttleSubject`): one host can take a new address of
 * its network for every request. IPv4 is counted per address, an IPv4-mapped address as IPv4.
 */
export class AuthFailureThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly redis: QuotaRedisClient | undefined,
    private readonly failover: Failover | undefined,
    private readonly clock: () => number = Date.now,
  ) {
    redis?.defineCommand(COMMAND, { numberOfKeys: 1, lua: FAILURE_SCRIPT });
  }

  /** Seconds the address must still wait, or undefined when it is not blocked. No I/O. */
  blockedFor(clientAddress: string): number | undefined {
    const subject = throttleSubject(clientAddress);
    const until = this.blockedUntil.get(subject);
    if (until === undefined) return undefined;
    const leftMs = until - this.clock();
    if (leftMs > 0) return Math.max(1, Math.ceil(leftMs / 1000));
    this.blockedUntil.delete(subject);
    return undefined;
  }

  /** Counts one failure (in Redis when there is one); returns the seconds to wait when the address is now blocked. */
  async recordFailure(clientAddress: string): Promise<number | undefined> {
    const subject = throttleSubject(clientAddress);
    const counted =
      this.redis && this.failover
        ? await this.failover.run(
            () => this.countInRedis(subject),
            () => this.countInMemory(subject),
          )
        : this.countInMemory(subject);
    return this.decide(subject, counted);
  }

  /** Counts one failure in this instance's memory only, whatever the store: no I/O. */
  recordLocalFailure(clientAddress: string): number | undefined {
    const subject = throttleSubject(clientAddress);
    return this.decide(subject, this.countInMemory(subject));
  }

  private decide(subject: string, { count, leftMs }: { count: number; leftMs: number }): number | undefined {
    if (count <= this.limit) return undefined;
    this.block(subject, this.clock() + leftMs);
    return Math.max(1, Math.ceil(leftMs / 1000));
  }

  private async countInRedis(address: string): Promise<{ count: number; leftMs: number }> {
    const script = this.redis as unknown as Record<
      typeof COMMAND,
      (k: string, ms: number) => Promise<unknown>
    >;
    const reply = await script[COMMAND](`auth-failures:{${address}}`, WINDOW_MS);
    if (!Array.isArray(reply) || reply.length !== 2 || !reply.every((v) => Number.isSafeInteger(v)))
      throw new Error(`unexpected auth-failure reply: ${JSON.stringify(reply)}`);
    const [count, pttl] = reply as number[];
    return { count: count!, leftMs: pttl! > 0 ? pttl! : WINDOW_MS };
  }

  private countInMemory(address: string): { count: number; leftMs: number } {
    const now = this.clock();
    let w = this.windows.get(address);
    if (!w || w.endMs <= now) {
      this.windows.delete(address);
      if (this.windows.size >= MAX_TRACKED_ADDRESSES) this.sweep(this.windows, now, (x) => x.endMs);
      w = { count: 0, endMs: now + WINDOW_MS };
      this.windows.set(address, w);
    }
    w.count++;
    return { count: w.count, leftMs: w.endMs - now };
  }

  private block(address: string, untilMs: number): void {
    this.blockedUntil.delete(address);
    if (this.blockedUntil.size >= MAX_TRACKED_ADDRESSES)
      this.sweep(this.blockedUntil, this.clock(), (x) => x);
    this.blockedUntil.set(address, untilMs);
  }

  /** Drops expired entries, then the oldest ones if still full (a Map iterates in insertion order). */
  private sweep<V>(map: Map<string, V>, now: number, endOf: (v: V) => number): void {
    for (const [k, v] of map) if (endOf(v) <= now) map.delete(k);
    for (const k of map.keys()) {
      if (map.size < MAX_TRACKED_ADDRESSES * 0.9) break;
      map.delete(k);
    }
  }
}
