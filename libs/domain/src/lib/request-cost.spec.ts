import { requestCost } from './request-cost';

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
