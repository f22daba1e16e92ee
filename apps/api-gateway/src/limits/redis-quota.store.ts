import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import { QUOTA_WINDOWS, type QuotaDecision, type QuotaLimits, type QuotaWindow } from './quota';
import type { QuotaBatch, SharedQuotaStore } from './failover-quota.store';
import { assertConsumeArguments, buildQuotaDecision, quotaWindows } from './quota-windows';
import type { ClusterSeed, RedisTarget } from './redis-target';

/**
 * One atomic step over the three counters of a key id (minute, day, month).
 * KEYS: the three counters. ARGV: cost, the three limits, the three TTLs in seconds.
 * Reply: { admitted (0|1), used x3, exceeded (0|1) x3 } — the new counters when admitted, the
 * unchanged ones when refused.
 *
 * The expiry is set only when the script creates a key: the TTL then runs to the end of the
 * window (plus a margin) as seen by whichever instance opened the window, and an admitted request
 * costs no extra write. A key that exists always has its TTL, since the script creates and
 * expires it in one atomic step. A cost of 0 writes nothing, so it never creates a key.
 */
const CONSUME_SCRIPT = `
local cost = tonumber(ARGV[1])
local used = {}
local existed = {}
local exceeded = {0, 0, 0}
local refused = false
for i = 1, 3 do
  local current = redis.call('GET', KEYS[i])
  existed[i] = current ~= false
  used[i] = tonumber(current or '0')
  if used[i] + cost > tonumber(ARGV[1 + i]) then
    exceeded[i] = 1
    refused = true
  end
end
if refused then
  return {0, used[1], used[2], used[3], exceeded[1], exceeded[2], exceeded[3]}
end
if cost > 0 then
  for i = 1, 3 do
    used[i] = redis.call('INCRBY', KEYS[i], cost)
    if not existed[i] then
      redis.call('EXPIRE', KEYS[i], ARGV[4 + i])
    end
  end
end
return {1, used[1], used[2], used[3], 0, 0, 0}
`;

/**
 * Adds one batch of units counted in a gateway's memory during an outage, once: the marker key
 * (same hash tag as the counter, so one cluster slot) records that the batch was applied, and
 * outlives the window, so a retry of the same batch is a no-op.
 * KEYS: the marker, the counter. ARGV: units, TTL in seconds. Reply: 1 applied, 0 already applied.
 */
const RECONCILE_SCRIPT = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[2]) then
  return 0
end
redis.call('INCRBY', KEYS[2], ARGV[1])
if redis.call('TTL', KEYS[2]) < 0 then
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return 1
`;

/** Named so they cannot clash with another `defineCommand` on a shared client. */
const COMMAND = 'tcgQuotaConsume';
const RECONCILE_COMMAND = 'tcgQuotaReconcile';

type QuotaScriptClient = Record<
  typeof COMMAND,
  (
    m: string,
    d: string,
    M: string,
    cost: number,
    lm: number,
    ld: number,
    lM: number,
    tm: number,
    td: number,
    tM: number,
  ) => Promise<unknown>
> &
  Record<
    typeof RECONCILE_COMMAND,
    (marker: string, counter: string, units: number, ttl: number) => Promise<unknown>
  >;

export type QuotaRedisClient = Redis | Cluster;

export interface RedisQuotaStoreOptions {
  /** Prefix of every counter key. Default `quota:`. */
  readonly keyPrefix?: string;
  /**
   * Seconds a counter outlives its window, so an instance whose clock runs a little behind still
   * finds the window's counter instead of opening a fresh one. Default 10.
   */
  readonly ttlMarginSeconds?: number;
}

/**
 * Quota counters shared by every gateway instance, in Redis (or Redis Cluster). One Lua script
 * checks and counts all three windows, so under any concurrency a quota of N admits exactly N
 * units. The three keys of a key id share the hash tag `{<keyId>}`, hence one cluster slot:
 * `quota:{<keyId>}:m:29611234`, `quota:{<keyId>}:d:20261122`, `quota:{<keyId>}:M:202611`.
 * (If a key id contained `}` the tag would stop early, but identically in all three keys, so they
 * would still share a slot.)
 *
 * Failures (connection lost, client not ready) reject; `FailoverQuotaStore` turns them into
 * in-memory counting, and hands back what memory counted through `reconcile`.
 */
export class RedisQuotaStore implements SharedQuotaStore {
  private readonly keyPrefix: string;
  private readonly ttlMarginSeconds: number;

  constructor(
    private readonly client: QuotaRedisClient,
    options: RedisQuotaStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'quota:';
    this.ttlMarginSeconds = options.ttlMarginSeconds ?? 10;
    // defineCommand runs the script by EVALSHA and loads it on NOSCRIPT, so it survives a restart.
    client.defineCommand(COMMAND, { numberOfKeys: 3, lua: CONSUME_SCRIPT });
    client.defineCommand(RECONCILE_COMMAND, { numberOfKeys: 2, lua: RECONCILE_SCRIPT });
  }

  /** Whether the client is connected; while it is not, commands fail at once (see `createQuotaRedis`). */
  isReady(): boolean {
    return this.client.status === 'ready';
  }

  /** The counter keys of a key id at an instant, minute, day and month. */
  keysFor(keyId: string, nowMs: number): Readonly<Record<QuotaWindow, string>> {
    return this.keysOf(keyId, quotaWindows(nowMs));
  }

  private keysOf(
    keyId: string,
    spans: ReturnType<typeof quotaWindows>,
  ): Readonly<Record<QuotaWindow, string>> {
    const key = (w: QuotaWindow): string => `${this.keyPrefix}{${keyId}}:${spans[w].id}`;
    return { minute: key('minute'), day: key('day'), month: key('month') };
  }

  async consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision> {
    assertConsumeArguments(keyId, cost, limits);
    const spans = quotaWindows(nowMs);
    const keys = this.keysOf(keyId, spans);
    const ttl = (w: QuotaWindow): number => spans[w].resetSeconds + this.ttlMarginSeconds;
    const script = this.client as unknown as QuotaScriptClient;
    const reply = await script[COMMAND](
      keys.minute,
      keys.day,
      keys.month,
      cost,
      limits.minute,
      limits.day,
      limits.month,
      ttl('minute'),
      ttl('day'),
      ttl('month'),
    );
    const [admitted, usedMinute, usedDay, usedMonth, ...flags] = parseReply(reply);
    const used = { minute: usedMinute!, day: usedDay!, month: usedMonth! };
    const exceeded = admitted === 1 ? [] : QUOTA_WINDOWS.filter((_, i) => flags[i] === 1);
    if (admitted !== 1 && exceeded.length === 0)
      throw new Error('quota script refused without naming a window');
    return buildQuotaDecision(used, exceeded, limits, spans);
  }

  /** Adds each batch to its counter once (see RECONCILE_SCRIPT); rejects if any could not be sent. */
  async reconcile(batches: readonly QuotaBatch[], nowMs: number): Promise<void> {
    const script = this.client as unknown as QuotaScriptClient;
    await Promise.all(
      batches.map((b) => {
        const counter = `${this.keyPrefix}{${b.keyId}}:${b.windowId}`;
        const marker = `${this.keyPrefix}{${b.keyId}}:applied:${b.id}`;
        const ttl = Math.max(1, Math.ceil((b.endMs - nowMs) / 1000)) + this.ttlMarginSeconds;
        return script[RECONCILE_COMMAND](marker, counter, b.units, ttl);
      }),
    );
  }

  /** A round trip that tells Redis answers. */
  async ping(): Promise<void> {
    await this.client.ping();
  }
}

function parseReply(reply: unknown): number[] {
  if (
    !Array.isArray(reply) ||
    reply.length !== 7 ||
    !reply.every((v): v is number => Number.isSafeInteger(v))
  ) {
    throw new Error(`unexpected quota script reply: ${JSON.stringify(reply)}`);
  }
  return reply;
}

/** Backoff between reconnection attempts: quick at first, at most 2 s. */
const reconnectDelay = (attempt: number): number => Math.min(attempt * 200, 2000);

/**
 * The client the quota stores expect: it fails fast while disconnected instead of queueing
 * commands (`enableOfflineQueue: false`, one retry per command, a short connect timeout), gives
 * up on a command after `commandTimeout` (a Redis that accepts connections but answers nothing), and
 * keeps reconnecting in the background, backing off up to 2 s, so `FailoverQuotaStore` notices
 * both the outage and the recovery quickly.
 *
 * Commands issued in the same turn of the event loop go out as one pipeline (one write, one read
 * of the replies; ioredis sends the next pipeline when the previous one has answered), instead of a
 * write and a read per request. Each script call stays one atomic step, in the order it was issued.
 *
 * Connection errors surface as failed commands, which `FailoverQuotaStore` logs once per outage;
 * the `error` listener only stops ioredis from printing every reconnect attempt. Pass
 * `onError` to see them anyway.
 */
export function createQuotaRedis(
  url: string,
  onError?: (err: Error) => void,
  overrides: RedisOptions = {},
): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 1000,
    retryStrategy: reconnectDelay,
    enableAutoPipelining: true,
    ...overrides,
  });
  client.on('error', (err: Error) => onError?.(err));
  return client;
}

/**
 * `createQuotaRedis` for a Redis Cluster, from one or more seed nodes: the same fast failure, the
 * same deadlines (`redisOptions` hold the per-node ones: ioredis sends each command on the
 * connection of the node that owns its slot) and auto-pipelining per node.
 *
 * Where the cluster client would otherwise wait and retry, it fails at once instead, so the caller
 * answers from memory rather than after the command deadline: a command for a slot whose master is
 * unreachable (`retryDelayOnFailover: 0`; ioredis would retry it up to 16 times, 100 ms apart), or
 * refused with CLUSTERDOWN (`retryDelayOnClusterDown: 0`; a restarted master refuses writes for its
 * first 2 s). A MOVED or ASK redirection is still followed at once, and TRYAGAIN (a slot being
 * migrated) retried, as these end within a command's time. The connections to the nodes do not
 * reconnect by themselves (ioredis's default): a command for a lost node's slots goes to another
 * node, whose MOVED leads to the node again once it is back, or to the replica that took over.
 * While no node answers at all, the client reconnects to the seeds like `createQuotaRedis`.
 */
export function createQuotaRedisCluster(
  seeds: readonly ClusterSeed[],
  onError?: (err: Error) => void,
  overrides: ClusterOptions = {},
): Cluster {
  const { redisOptions, ...options } = overrides;
  const client = new Cluster(
    seeds.map((s) => ({ host: s.host, port: s.port })),
    {
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      clusterRetryStrategy: reconnectDelay,
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 0,
      slotsRefreshTimeout: redisOptions?.connectTimeout ?? 1000,
      ...options,
      redisOptions: {
        maxRetriesPerRequest: 1,
        connectTimeout: 1000,
        commandTimeout: 1000,
        ...redisOptions,
      },
    },
  );
  client.on('error', (err: Error) => onError?.(err));
  // One per node and attempt while a node is down; surfaced as failed commands, like `error`.
  client.on('node error', (err: Error) => onError?.(err));
  return client;
}

/** The client for a `RedisTarget` (see `parseRedisTarget`), with the gateway's two deadlines. */
export function createQuotaRedisClient(
  target: RedisTarget,
  deadlines: { readonly commandTimeout: number; readonly connectTimeout: number },
  onError?: (err: Error) => void,
): QuotaRedisClient {
  if (target.kind === 'standalone') return createQuotaRedis(target.url, onError, deadlines);
  const credentials = {
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
  };
  return createQuotaRedisCluster(target.seeds, onError, {
    slotsRefreshTimeout: deadlines.connectTimeout,
    redisOptions: { ...deadlines, ...credentials },
  });
}
