import { negotiateCoding } from './content-coding';

describe('negotiateCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['br;q=2', 'identity'], // not a qvalue: treated as q=0
    ['br;q=abc, gzip', 'gzip'],
    [' br ; q=1.000 ', 'br'],
    [['gzip', 'br;q=0.9'], 'gzip'],
  ] as const)('%j → %s', (header, coding) => {
    expect(negotiateCoding(header as string | string[] | undefined)).toBe(coding);
  });

  it('reads only the first 512 characters of a hostile header', () => {
    expect(negotiateCoding(`${'x,'.repeat(10_000)}br`)).toBe('identity');
    expect(negotiateCoding(`br,${'x;'.repeat(100_000)}`)).toBe('br');
  });
});
