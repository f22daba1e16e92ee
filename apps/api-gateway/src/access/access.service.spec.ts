import {
  type ApiKeyRecord,
  ApiKeySigner,
  generateApiKey,
  generateLegacyApiKey,
  hashApiKey,
} from '@tcg/domain';
import type { IncomingMessage } from 'node:http';
import type { Environment } from '../config/environment';
import type { Failover } from '../limits/failover';
import { MemoryQuotaStore } from '../limits/memory-quota.store';
import type { QuotaStore } from '../limits/quota';
import { AccessService } from './access.service';
import type { ApiKeyCache, KeyLookup } from './api-key-cache.service';
import { AuthFailureThrottle } from './auth-failure-throttle.service';
import { ClientAddressResolver } from './client-address';
import type { QuotaRedisClient } from '../limits/redis-quota.store';

const SECRET = 'access-spec-secret-0123456789';

/** The validated environment's parts AccessService reads. */
function environment(overrides: Partial<Environment> = {}): Environment {
  return {
    API_KEY_PREVIOUS_SECRETS: '',
    LEGACY_KEYS_REFRESH_MS: 60_000,
    LEGACY_KEYS_LOAD_TIMEOUT_MS: 10_000,
    KEY_LOOKUP_TIMEOUT_MS: 1_000,
    ...overrides,
  } as Environment;
}

/** A key repository holding these legacy keys' digests. */
const legacyKeys = (...keys: string[]) => ({
  activeLegacyKeyHashes: () => Promise.resolve(keys.map(hashApiKey)),
});

const record: ApiKeyRecord = {
  id: 'k1',
  prefix: 'tcg_abcdefgh',
  plan: 'free',
  label: '',
  createdAt: new Date(0),
  revokedAt: null,
};

function request(key: string | undefined, address = '10.0.0.1'): IncomingMessage {
  return {
    headers: key === undefined ? {} : { 'x-api-key': key },
    socket: { remoteAddress: address },
  } as unknown as IncomingMessage;
}

describe('AccessService', () => {
  const url = { path: '/v1/cards', query: '' };
  let lookups: { key: string; suspect: boolean }[];
  let answer: KeyLookup;
  let validKeys: Set<string>;
  let quotas: QuotaStore;
  let access: AccessService;

  beforeEach(() => {
    lookups = [];
    answer = { kind: 'found', record };
    validKeys = new Set();
    const keys = {
      lookup: (key: string, suspect: boolean) => {
        lookups.push({ key, suspect });
        return Promise.resolve(validKeys.has(key) ? { kind: 'found', record } : answer);
      },
    } as unknown as ApiKeyCache;
    quotas = new MemoryQuotaStore();
    access = new AccessService(
      keys,
      new AuthFailureThrottle(2, undefined, undefined),
      quotas,
      new ClientAddressResolver([]),
      environment(),
      legacyKeys(),
    );
  });

  it.each([
    ['missing', undefined, 'MISSING_API_KEY'],
    ['too short', 'tcg_abc', 'INVALID_API_KEY'],
    ['oversized', `tcg_${'a'.repeat(100_000)}`, 'INVALID_API_KEY'],
    ['wrong prefix', `abc_${'a'.repeat(32)}`, 'INVALID_API_KEY'],
    ['outside the alphabet', `tcg_${'a'.repeat(31)}-`, 'INVALID_API_KEY'],
    ['two keys', `${generateApiKey()}, ${generateApiKey()}`, 'INVALID_API_KEY'],
  ])('refuses a %s key with 401 and never looks it up', async (_name, key, code) => {
    expect(await access.admit(request(key), url)).toMatchObject({ admitted: false, status: 401, code });
    expect(lookups).toEqual([]);
  });

  it('blocks an address past its failures: malformed keys get 429 without I/O, well-formed ones are looked up as suspects', async () => {
    answer = { kind: 'unknown' };
    await access.admit(request('bad'), url);
    await access.admit(request('bad'), url);
    expect(await access.admit(request('bad'), url)).toMatchObject({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
    });
    expect(lookups).toEqual([]);
    const unknown = await access.admit(request(generateApiKey()), url);
    expect(unknown).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(unknown.admitted === false && unknown.retryAfterSeconds).toBeGreaterThan(0);
    // A never-used valid key from the blocked address is served: the block throttles failures.
    const fresh = generateApiKey();
    validKeys.add(fresh);
    expect((await access.admit(request(fresh), url)).admitted).toBe(true);
    expect(lookups.map((l) => l.suspect)).toEqual([true, true]);
    // Other addresses are not blocked, and their lookups are not suspects.
    expect((await access.admit(request(fresh, '10.0.0.2'), url)).admitted).toBe(true);
    expect(lookups.at(-1)).toEqual({ key: fresh, suspect: false });
  });

  it('counts failures per client address behind a trusted proxy, not per proxy', async () => {
    answer = { kind: 'unknown' };
    const behind = new AccessService(
      { lookup: () => Promise.resolve(answer) } as unknown as ApiKeyCache,
      new AuthFailureThrottle(2, undefined, undefined),
      quotas,
      new ClientAddressResolver(['10.0.0.0/8']),
      environment(),
      legacyKeys(),
    );
    const via = (client: string) =>
      ({
        headers: { 'x-forwarded-for': client },
        socket: { remoteAddress: '10.0.0.1' },
      }) as unknown as IncomingMessage;
    for (let i = 0; i < 3; i++) await behind.admit(via('198.51.100.1'), url);
    expect(await behind.admit(via('198.51.100.1'), url)).toMatchObject({ status: 429 });
    expect(await behind.admit(via('198.51.100.2'), url)).toMatchObject({ status: 401 });
  });

  it('counts an unknown well-formed key as a failure', async () => {
    answer = { kind: 'unknown' };
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const a = await access.admit(request(generateApiKey()), url);
      statuses.push(a.admitted ? 200 : a.status);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
    // The third failure set the block; the fourth was still looked up, as a suspect, and refused 429.
    expect(lookups.map((l) => l.suspect)).toEqual([false, false, false, true]);
  });

  it('answers 503 with Retry-After when the key cannot be checked, and counts no failure', async () => {
    answer = { kind: 'unavailable' };
    for (let i = 0; i < 5; i++)
      expect(await access.admit(request(generateApiKey()), url)).toMatchObject({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        retryAfterSeconds: expect.any(Number),
      });
  });

  it('turns an unexpected failure into a 503 decision instead of rejecting', async () => {
    jest.spyOn(quotas, 'consume').mockRejectedValue(new Error('boom'));
    expect(await access.admit(request(generateApiKey()), url)).toMatchObject({
      admitted: false,
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('admits a valid key within its plan and reports the usage', async () => {
    const admitted = await access.admit(request(generateApiKey()), url);
    expect(admitted).toMatchObject({ admitted: true, key: record, usage: { plan: 'free' } });
  });

  it('marks the refusals that say the key is bad (401, the failure block’s 429) with their address, and no other', async () => {
    const badKey = async (key: string | undefined, address: string): Promise<[number, boolean]> => {
      const a = await access.admit(request(key, address), url);
      if (!a.admitted && a.badKeyFrom !== undefined) expect(a.badKeyFrom).toBe(address);
      return a.admitted ? [200, false] : [a.status, a.badKeyFrom !== undefined];
    };
    // From memory: missing, malformed; then the address is blocked.
    expect(await badKey(undefined, '10.1.0.1')).toEqual([401, true]);
    expect(await badKey('bad', '10.1.0.1')).toEqual([401, true]);
    expect(await badKey('bad', '10.1.0.1')).toEqual([429, true]);
    // Looked up and unknown; then blocked.
    answer = { kind: 'unknown' };
    expect(await badKey(generateApiKey(), '10.1.0.2')).toEqual([401, true]);
    expect(await badKey(generateApiKey(), '10.1.0.2')).toEqual([401, true]);
    expect(await badKey(generateApiKey(), '10.1.0.2')).toEqual([429, true]);
    // A key that may be good: the lookup could not answer.
    answer = { kind: 'unavailable' };
    expect(await badKey(generateApiKey(), '10.1.0.3')).toEqual([503, false]);
    // A good key over its plan's per-minute limit.
    answer = { kind: 'found', record };
    const key = generateApiKey();
    let last: [number, boolean] = [200, false];
    for (let i = 0; i < 100 && last[0] === 200; i++) last = await badKey(key, '10.1.0.4');
    expect(last).toEqual([429, false]);
  });

  it('marks a bad key from IPv6 with its /64, as the auth-failure throttle counts it', async () => {
    const a = await access.admit(request('bad', '2001:db8:1:2:aaaa::1'), url);
    expect(a).toMatchObject({ status: 401, badKeyFrom: '2001:db8:1:2::/64' });
  });

  describe('keys refused from memory (issue 37: a flood of unknown keys cost a lookup each)', () => {
    const signer = new ApiKeySigner(SECRET);
    const legacy = generateLegacyApiKey();
    let redisCalls: number;
    let secured: AccessService;

    beforeEach(async () => {
      redisCalls = 0;
      // A throttle counting in "Redis": every call to the shared store is seen here.
      const redis = {
        defineCommand: () => undefined,
        tcgAuthFailure: () => {
          redisCalls++;
          return Promise.resolve([1, 60_000]);
        },
      } as unknown as QuotaRedisClient;
      const failover = { run: (inRedis: () => Promise<unknown>) => inRedis() } as unknown as Failover;
      validKeys.add(legacy);
      secured = new AccessService(
        {
          stop: () => undefined,
          lookup: (key: string, suspect: boolean) => {
            lookups.push({ key, suspect });
            return Promise.resolve(validKeys.has(key) ? { kind: 'found', record } : { kind: 'unknown' });
          },
        } as unknown as ApiKeyCache,
        new AuthFailureThrottle(30, redis, failover),
        quotas,
        new ClientAddressResolver([]),
        environment({ API_KEY_SECRET: SECRET }),
        legacyKeys(legacy),
      );
      await secured.onModuleInit();
    });
    afterEach(() => secured.onModuleDestroy());

    const forged = signer.generate().slice(0, 36) + signer.generate().slice(36);
    it.each([
      ['with a random check', forged],
      ['whose check was made under another secret', new ApiKeySigner('another-secret-0123456789').generate()],
      ['checked under the default, when a secret is set', generateApiKey()],
      ['of the legacy shape, not among the legacy keys', generateLegacyApiKey()],
    ])('refuses a key %s with 401, without a lookup or a Redis call', async (_name, key) => {
      expect(await secured.admit(request(key), url)).toMatchObject({
        admitted: false,
        status: 401,
        code: 'INVALID_API_KEY',
      });
      expect(lookups).toEqual([]);
      expect(redisCalls).toBe(0);
    });

    it('admits a key checked under the secret, and a legacy key among the legacy ones', async () => {
      const fresh = signer.generate();
      validKeys.add(fresh);
      expect(await secured.admit(request(fresh), url)).toMatchObject({ admitted: true });
      expect(await secured.admit(request(legacy), url)).toMatchObject({ admitted: true });
      expect(lookups.map((l) => l.key)).toEqual([fresh, legacy]);
    });

    it('still looks up an unknown key whose check verifies, and counts it in the shared store', async () => {
      expect(await secured.admit(request(signer.generate()), url)).toMatchObject({ status: 401 });
      expect(lookups).toHaveLength(1);
      expect(redisCalls).toBe(1);
    });

    it('blocks a flood of forged keys from memory: 30 × 401, then 429, and never any I/O', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const a = await secured.admit(request(generateLegacyApiKey(), '10.9.9.9'), url);
        statuses.push(a.admitted ? 200 : a.status);
      }
      expect(statuses).toEqual([...Array(30).fill(401), ...Array(10).fill(429)]);
      expect(lookups).toEqual([]);
      expect(redisCalls).toBe(0);
      // A customer sharing the flooding address is served, fresh or legacy.
      const fresh = signer.generate();
      validKeys.add(fresh);
      expect(await secured.admit(request(fresh, '10.9.9.9'), url)).toMatchObject({ admitted: true });
      expect(await secured.admit(request(legacy, '10.9.9.9'), url)).toMatchObject({ admitted: true });
    });

    it('answers 503 with Retry-After, without any I/O, to legacy-shaped keys while the legacy keys are not read', async () => {
      let reads = 0;
      const unread = new AccessService(
        {
          stop: () => undefined,
          lookup: (key: string, suspect: boolean) => {
            lookups.push({ key, suspect });
            return Promise.resolve({ kind: 'found', record });
          },
        } as unknown as ApiKeyCache,
        new AuthFailureThrottle(30, undefined, undefined),
        quotas,
        new ClientAddressResolver([]),
        environment({ API_KEY_SECRET: SECRET, LEGACY_KEYS_LOAD_TIMEOUT_MS: 10 }),
        { activeLegacyKeyHashes: () => (reads++, Promise.reject(new Error('database down'))) },
      );
      await unread.onModuleInit();
      expect([reads, unread.legacyKeysLoaded]).toEqual([1, false]);
      // A valid legacy key and a guessed one alike: the customer is told to come back, not that the key is wrong.
      for (const key of [legacy, generateLegacyApiKey(), generateLegacyApiKey()])
        expect(await unread.admit(request(key, '10.9.9.8'), url)).toMatchObject({
          admitted: false,
          status: 503,
          code: 'SERVICE_UNAVAILABLE',
          retryAfterSeconds: 5,
        });
      expect(lookups).toEqual([]);
      expect(redisCalls).toBe(0);
      // Not counted as failures: the address is not blocked, and checked keys are served meanwhile.
      const fresh = signer.generate();
      expect(await unread.admit(request(fresh, '10.9.9.8'), url)).toMatchObject({ admitted: true });
      unread.onModuleDestroy();
    });
  });
});
