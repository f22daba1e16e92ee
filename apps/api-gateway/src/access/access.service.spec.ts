import { type ApiKeyRecord, generateApiKey } from '@tcg/domain';
import type { IncomingMessage } from 'node:http';
import { MemoryQuotaStore } from '../limits/memory-quota.store';
import type { QuotaStore } from '../limits/quota';
import { AccessService } from './access.service';
import type { ApiKeyCache, KeyLookup } from './api-key-cache.service';
import { AuthFailureThrottle } from './auth-failure-throttle.service';

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
  let lookups: string[];
  let answer: KeyLookup;
  let knownValid: Set<string>;
  let quotas: QuotaStore;
  let access: AccessService;

  beforeEach(() => {
    lookups = [];
    answer = { kind: 'found', record };
    knownValid = new Set();
    const keys = {
      lookup: (k: string) => {
        lookups.push(k);
        return Promise.resolve(answer);
      },
      isKnownValid: (k: string) => knownValid.has(k),
    } as unknown as ApiKeyCache;
    quotas = new MemoryQuotaStore();
    access = new AccessService(keys, new AuthFailureThrottle(2, undefined, undefined), quotas);
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

  it('blocks an address past its failures with 429 and Retry-After, without looking keys up', async () => {
    await access.admit(request('bad'), url);
    await access.admit(request('bad'), url);
    expect(await access.admit(request('bad'), url)).toMatchObject({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
    });
    const fresh = generateApiKey();
    const blocked = await access.admit(request(fresh), url);
    expect(blocked).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    expect(blocked.admitted === false && blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect(lookups).toEqual([]);
    // A key already known valid still gets through from that address; others are not blocked.
    knownValid.add(fresh);
    expect((await access.admit(request(fresh), url)).admitted).toBe(true);
    expect((await access.admit(request(generateApiKey(), '10.0.0.2'), url)).admitted).toBe(true);
  });

  it('counts an unknown well-formed key as a failure', async () => {
    answer = { kind: 'unknown' };
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const a = await access.admit(request(generateApiKey()), url);
      statuses.push(a.admitted ? 200 : a.status);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect(lookups).toHaveLength(3); // the third failure set the block; the fourth was not looked up
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
});
