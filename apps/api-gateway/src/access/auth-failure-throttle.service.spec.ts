import { AuthFailureThrottle } from './auth-failure-throttle.service';

describe('AuthFailureThrottle (in memory)', () => {
  let clockMs: number;
  let throttle: AuthFailureThrottle;

  beforeEach(() => {
    clockMs = 0;
    throttle = new AuthFailureThrottle(3, undefined, undefined, () => clockMs);
  });

  it('blocks an address past its allowance until a minute after its first failure', async () => {
    const results = [];
    for (let i = 0; i < 5; i++) {
      results.push(await throttle.recordFailure('a'));
      clockMs += 1000;
    }
    expect(results).toEqual([undefined, undefined, undefined, 57, 56]);
    expect(throttle.blockedFor('a')).toBe(55);
    expect(throttle.blockedFor('b')).toBeUndefined();
    clockMs = 60_000;
    expect(throttle.blockedFor('a')).toBeUndefined();
    expect(await throttle.recordFailure('a')).toBeUndefined(); // a new window
  });
});
