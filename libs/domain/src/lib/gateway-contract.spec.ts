import { credentialMatches, decodeUsage, encodeUsage, requestCost } from './gateway-contract';

describe('requestCost', () => {
  it.each([
    ['/v1/cards', 'graded=include&regions=NA,EU', 1],
    // Bulk data: the list and a download of tens of MB cost 1 each (issue 11).
    ['/v1/bulk', '', 1],
    ['/v1/bulk/magic-the-gathering/csv.gz', 'graded=include&regions=NA,EU', 1],
    ['/v2/cards', '', 1],
    ['/v2/cards', 'graded=exclude', 1],
    ['/v2/cards', 'graded=only', 1],
    ['/v2/cards', 'graded=include', 2],
    ['/v2/cards', 'graded=INCLUDE', 2],
    ['/v2/cards', 'regions=NA', 1],
    ['/v2/cards', 'regions=NA,EU,jp', 3],
    ['/v2/cards', 'regions=NA,na,EU', 2],
    ['/v2/cards/abc', 'regions=NA,EU&graded=include', 3],
    ['/v2/cards', 'regions=,', 1],
  ])('%s?%s costs %d', (path, query, cost) => {
    expect(requestCost(path, new URLSearchParams(query))).toBe(cost);
  });
});

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
