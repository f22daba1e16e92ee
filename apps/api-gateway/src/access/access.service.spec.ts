import { type ApiKeyRecord, generateApiKey } from '@tcg/domain';
import type { IncomingMessage } from 'node:http';
import { MemoryQuotaStore } from '../limits/memory-quota.store';
import type { QuotaStore } from '../limits/quota';
import { AccessService } from './access.service';
import type { ApiKeyCache, KeyLookup } from './api-key-cache.service';
import { AuthFailureThrottle } from './auth-failure-throttle.service';
import { ClientAddressResolver } from './client-address';

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
});
