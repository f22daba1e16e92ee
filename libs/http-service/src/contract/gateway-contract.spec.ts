import { credentialMatches, decodeUsage, encodeUsage } from './gateway-contract';

describe('usage report', () => {
  const report = {
    plan: 'starter',
    minute: { limit: 60, used: 1, resetSeconds: 59 },
    day: { limit: 2000, used: 5, resetSeconds: 3600 },
    month: { limit: 30000, used: 9, resetSeconds: 86400 },
  };

  it('round-trips and rejects malformed headers', () => {
    expect(decodeUsage(encodeUsage(report))).toEqual(report);
    expect(decodeUsage(undefined)).toBeUndefined();
    expect(decodeUsage('{')).toBeUndefined();
    expect(
      decodeUsage(JSON.stringify({ ...report, day: { limit: -1, used: 0, resetSeconds: 1 } })),
    ).toBeUndefined();
  });

  it('compares credentials exactly', () => {
    expect(credentialMatches('secret', 'secret')).toBe(true);
    expect(credentialMatches('secret', 'Secret')).toBe(false);
    expect(credentialMatches('secret', 'secret2')).toBe(false);
    expect(credentialMatches('secret', undefined)).toBe(false);
  });
});
