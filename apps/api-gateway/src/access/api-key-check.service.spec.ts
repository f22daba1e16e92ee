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
      { refreshMs: 60_000, timeoutMs: 1_000, firstTimeoutMs: 10_000 },
    );
    await set.start();
    expect([set.mayHold(hashApiKey(a)), set.mayHold(hashApiKey(b))]).toEqual([true, false]);
    held = [b]; // a revoked, b issued (a DEMO_API_KEY of the old shape)
    await jest.advanceTimersByTimeAsync(60_000);
    expect(reads).toBe(2);
    expect([set.mayHold(hashApiKey(a)), set.mayHold(hashApiKey(b))]).toEqual([false, true]);
    set.stop();
  });

  it('cannot tell of any key until a read succeeds, retrying every 5 s, and keeps the last set on a failed refresh', async () => {
    jest.useFakeTimers();
    const key = generateLegacyApiKey();
    let failing = true;
    const errors: unknown[] = [];
    const set = new LegacyKeySet(
      () => (failing ? Promise.reject(new Error('down')) : Promise.resolve([hashApiKey(key)])),
      { refreshMs: 60_000, timeoutMs: 1_000, firstTimeoutMs: 10_000, onError: (e) => errors.push(e) },
    );
    await set.start();
    expect(set.loaded).toBe(false);
    expect(set.mayHold(hashApiKey(key))).toBeUndefined();
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

  it('waits firstTimeoutMs for the reads until one succeeds, and timeoutMs for those after', async () => {
    jest.useFakeTimers();
    const errors: unknown[] = [];
    let readMs = 5_000; // a cold database, a large set
    const set = new LegacyKeySet(
      () => new Promise<Buffer[]>((resolve) => setTimeout(() => resolve([]), readMs)),
      { refreshMs: 60_000, timeoutMs: 1_000, firstTimeoutMs: 10_000, onError: (e) => errors.push(e) },
    );
    const started = set.start();
    await jest.advanceTimersByTimeAsync(5_000);
    await started;
    expect([set.loaded, errors]).toEqual([true, []]);
    readMs = 2_000;
    await jest.advanceTimersByTimeAsync(61_000);
    expect(errors).toEqual([new Error('legacy key digests not read within 1000 ms')]);
    set.stop();
  });

  it('gives up a first read that hangs after firstTimeoutMs', async () => {
    jest.useFakeTimers();
    const errors: unknown[] = [];
    const set = new LegacyKeySet(() => new Promise<Buffer[]>(() => undefined), {
      refreshMs: 60_000,
      timeoutMs: 1_000,
      firstTimeoutMs: 10_000,
      onError: (e) => errors.push(e),
    });
    const started = set.start();
    await jest.advanceTimersByTimeAsync(10_000);
    await started;
    expect(errors).toEqual([new Error('legacy key digests not read within 10000 ms')]);
    set.stop();
  });
});

describe('ApiKeyChecker', () => {
  const signer = new ApiKeySigner('checker-spec-secret-0123');
  const legacy = generateLegacyApiKey();
  const options = { refreshMs: 60_000, timeoutMs: 1_000, firstTimeoutMs: 10_000 };
  const set = new LegacyKeySet(() => Promise.resolve([hashApiKey(legacy)]), options);
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

  it('calls a legacy key unverifiable until the set is read, and a checked one still plausible', () => {
    const unread = new ApiKeyChecker(signer, new LegacyKeySet(() => Promise.resolve([]), options));
    expect(unread.check(legacy)).toBe('unverifiable');
    expect(unread.check(generateLegacyApiKey())).toBe('unverifiable');
    expect(unread.check(signer.generate())).toBe('plausible');
  });
});
