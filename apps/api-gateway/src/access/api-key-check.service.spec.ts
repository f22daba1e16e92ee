import { ApiKeySigner, generateLegacyApiKey, hashApiKey } from '@tcg/domain';
import { ApiKeyChecker, LegacyKeySet } from './api-key-check.service';

describe('LegacyKeySet', () => {
  afterEach(() => jest.useRealTimers());

  it('answers from memory after its first read, and reads again every refreshMs', async () => {
    jest.useFakeTimers();
    const [a, b] = [generateLegacyApiKey(), generateLegacyApiKey()];
    let held = [a];
    let reads = 0;
    const set = new LegacyKeySet(
      () => {
        reads++;
        return Promise.resolve(held.map(hashApiKey));
      },
      { refreshMs: 60_000, timeoutMs: 1_000 },
    );
    await set.start();
    expect([set.mayHold(hashApiKey(a)), set.mayHold(hashApiKey(b))]).toEqual([true, false]);
    held = [b]; // a revoked, b issued (a DEMO_API_KEY of the old shape)
    await jest.advanceTimersByTimeAsync(60_000);
    expect(reads).toBe(2);
    expect([set.mayHold(hashApiKey(a)), set.mayHold(hashApiKey(b))]).toEqual([false, true]);
    set.stop();
  });

  it('holds every key possible until a read succeeds, retrying every 5 s, and keeps the last set on a failed refresh', async () => {
    jest.useFakeTimers();
    const key = generateLegacyApiKey();
    let failing = true;
    const errors: unknown[] = [];
    const set = new LegacyKeySet(
      () => (failing ? Promise.reject(new Error('down')) : Promise.resolve([hashApiKey(key)])),
      { refreshMs: 60_000, timeoutMs: 1_000, onError: (e) => errors.push(e) },
    );
    await set.start();
    expect(set.loaded).toBe(false);
    expect(set.mayHold(hashApiKey(generateLegacyApiKey()))).toBe(true);
    failing = false;
    await jest.advanceTimersByTimeAsync(5_000);
    expect(set.loaded).toBe(true);
    expect(set.mayHold(hashApiKey(generateLegacyApiKey()))).toBe(false);
    failing = true;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(errors).toHaveLength(2);
    expect(set.mayHold(hashApiKey(key))).toBe(true);
    expect(set.mayHold(hashApiKey(generateLegacyApiKey()))).toBe(false);
    set.stop();
  });

  it('gives up a read that hangs after timeoutMs', async () => {
    jest.useFakeTimers();
    const errors: unknown[] = [];
    const set = new LegacyKeySet(() => new Promise<Buffer[]>(() => undefined), {
      refreshMs: 60_000,
      timeoutMs: 1_000,
      onError: (e) => errors.push(e),
    });
    const started = set.start();
    await jest.advanceTimersByTimeAsync(1_000);
    await started;
    expect(errors).toEqual([new Error('legacy key digests not read within 1000 ms')]);
    set.stop();
  });
});

describe('ApiKeyChecker', () => {
  const signer = new ApiKeySigner('checker-spec-secret-0123');
  const legacy = generateLegacyApiKey();
  const set = new LegacyKeySet(() => Promise.resolve([hashApiKey(legacy)]), {
    refreshMs: 60_000,
    timeoutMs: 1_000,
  });
  const checker = new ApiKeyChecker(signer, set);
  beforeAll(() => set.start());
  afterAll(() => set.stop());

  it.each([
    ['no key', 'absent', undefined],
    ['a malformed key', 'malformed', 'guess-1'],
    ['a checked key under the secret', 'plausible', signer.generate()],
    ['a checked key under another secret', 'forged', new ApiKeySigner('other-secret-0123456789').generate()],
    ['a legacy key in the set', 'plausible', legacy],
    ['a legacy key not in the set', 'forged', generateLegacyApiKey()],
  ])('calls %s %s', (_name, verdict, key) => {
    expect(checker.check(key)).toBe(verdict);
  });
});
