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

  it('counts an IPv6 client by its /64, IPv4 per address, and an IPv4-mapped address as IPv4', async () => {
    // Three failures from three addresses of one /64: the fourth, from a fourth, is blocked.
    for (const a of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff'])
      expect(await throttle.recordFailure(a)).toBeUndefined();
    expect(await throttle.recordFailure('2001:db8:1:2:abcd::9')).toBe(60);
    expect(throttle.blockedFor('2001:0db8:0001:0002::77')).toBe(60);
    expect(throttle.blockedFor('2001:db8:1:3::1')).toBeUndefined(); // the next /64
    // IPv4: per address.
    for (let i = 0; i < 3; i++) await throttle.recordFailure('192.0.2.1');
    expect(await throttle.recordFailure('192.0.2.2')).toBeUndefined();
    expect(await throttle.recordFailure('::ffff:192.0.2.1')).toBe(60);
    expect(throttle.blockedFor('192.0.2.1')).toBe(60);
    expect(throttle.blockedFor('192.0.2.2')).toBeUndefined();
  });

  it('counts failures found without I/O the same way, in memory', () => {
    for (let i = 0; i < 3; i++) expect(throttle.recordLocalFailure(`2001:db8::${i}`)).toBeUndefined();
    expect(throttle.recordLocalFailure('2001:db8::ffff')).toBe(60);
    expect(throttle.blockedFor('2001:db8:0:0:1::')).toBe(60);
  });
});
