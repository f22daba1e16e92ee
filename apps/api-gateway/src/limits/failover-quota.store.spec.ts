import {
  FailoverQuotaStore,
  REDIS_BACK_MESSAGE,
  REDIS_UNREACHABLE_MESSAGE,
  type QuotaLogger,
} from './failover-quota.store';
import { MemoryQuotaStore } from './memory-quota.store';
import type { QuotaDecision, QuotaLimits } from './quota';

/** Stands in for RedisQuotaStore: counts like one (in its own memory) until told to fail or hang. */
class FakeRedisStore {
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  ready = true;
  calls = 0;
  readonly shared = new MemoryQuotaStore();

  isReady(): boolean {
    return this.ready;
  }

  consume(keyId: string, cost: number, limits: QuotaLimits, nowMs: number): Promise<QuotaDecision> {
    this.calls++;
    if (this.mode === 'fail') return Promise.reject(new Error('Connection is closed.'));
    if (this.mode === 'hang') return new Promise<QuotaDecision>(() => undefined);
    return this.shared.consume(keyId, cost, limits, nowMs);
  }
}

describe('FailoverQuotaStore', () => {
  const limits = { minute: 5, day: 100, month: 1000 };
  const now = Date.parse('2026-11-22T12:34:56.789Z');
  let redis: FakeRedisStore;
  let logs: [string, string][];
  let clockMs: number;
  let store: FailoverQuotaStore;

  beforeEach(() => {
    redis = new FakeRedisStore();
    logs = [];
    clockMs = 0;
    const log: QuotaLogger = (level, msg) => logs.push([level, msg]);
    store = new FailoverQuotaStore(redis, new MemoryQuotaStore(), log, {
      redisTimeoutMs: 20,
      retryIntervalMs: 1000,
      clock: () => clockMs,
    });
  });

  const consume = (cost = 1): Promise<QuotaDecision> => store.consume('k', cost, limits, now);

  it('counts in Redis while Redis answers', async () => {
    await consume();
    await consume();
    expect(redis.calls).toBe(2);
    expect((await redis.shared.consume('k', 0, limits, now)).usage.minute.used).toBe(2);
    expect(logs).toEqual([]);
    expect(store.countingInRedis).toBe(true);
  });

  it('counts in memory when Redis fails, from the usage Redis last reported, and logs it once', async () => {
    await consume(2);
    redis.mode = 'fail';
    const decisions = [await consume(), await consume(), await consume()];
    expect(decisions.map((d) => [d.admitted, d.usage.minute.used])).toEqual([
      [true, 3],
      [true, 4],
      [true, 5],
    ]);
    expect(await consume()).toMatchObject({ admitted: false, exceeded: 'minute' });
    expect(logs).toEqual([['warn', REDIS_UNREACHABLE_MESSAGE]]);
    expect(store.countingInRedis).toBe(false);
  });

  it('does not call a client that is not connected', async () => {
    redis.ready = false;
    expect((await consume()).admitted).toBe(true);
    expect(redis.calls).toBe(0);
    expect(logs).toEqual([['warn', REDIS_UNREACHABLE_MESSAGE]]);
  });

  it('answers from memory when Redis hangs', async () => {
    redis.mode = 'hang';
    const decision = await consume();
    expect(decision.admitted).toBe(true);
    expect(logs).toEqual([['warn', REDIS_UNREACHABLE_MESSAGE]]);
  });

  it('tries Redis again once per interval, and logs its return once', async () => {
    redis.mode = 'fail';
    await consume();
    redis.mode = 'ok';
    await consume();
    await consume();
    expect(redis.calls).toBe(1); // still inside the retry interval
    clockMs += 1000;
    const [first, second] = await Promise.all([consume(), consume()]);
    expect(redis.calls).toBe(2); // one request probes, the other stays in memory
    expect([first.usage.minute.used, second.usage.minute.used].sort()).toEqual([1, 4]);
    await consume();
    await consume();
    expect(redis.calls).toBe(4);
    expect(logs).toEqual([
      ['warn', REDIS_UNREACHABLE_MESSAGE],
      ['log', REDIS_BACK_MESSAGE],
    ]);
    expect(store.countingInRedis).toBe(true);
  });

  it('logs each outage and each return once', async () => {
    for (const mode of ['fail', 'ok', 'fail', 'ok'] as const) {
      redis.mode = mode;
      clockMs += 1000;
      await consume(0);
      await consume(0);
    }
    expect(logs.map(([, msg]) => msg)).toEqual([
      REDIS_UNREACHABLE_MESSAGE,
      REDIS_BACK_MESSAGE,
      REDIS_UNREACHABLE_MESSAGE,
      REDIS_BACK_MESSAGE,
    ]);
  });

  it('throws on a bad argument without blaming Redis', async () => {
    await expect(store.consume('k', -1, limits, now)).rejects.toThrow(RangeError);
    expect(redis.calls).toBe(0);
    expect(logs).toEqual([]);
  });
});
