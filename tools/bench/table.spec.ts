import { bytes, formatTable, ms, num, ratio } from './table';

describe('formatTable', () => {
  it('aligns the first column left and the others right, with a rule under the header', () => {
    expect(
      formatTable(
        ['row', 'req/s', 'note'],
        [
          ['floor', '8,566', 'same bytes'],
          ['v1 lookup', '482', ''],
        ],
        [0, 2],
      ),
    ).toBe(
      [
        'row        req/s  note',
        '---------  -----  ----------',
        'floor      8,566  same bytes',
        'v1 lookup    482',
      ].join('\n'),
    );
  });
});

describe('cells', () => {
  it.each([
    [num(74313.4), '74,313'],
    [num(52.25, 1), '52.3'],
    [num(undefined), '-'],
    [num(NaN), '-'],
    [ms(0.344), '0.34'],
    [ms(63.04), '63.0'],
    [ms(579.4), '579'],
    [ms(1820.2), '1,820'],
    [ratio(482, 8566), '0.056×'],
    [ratio(74313, 8566), '8.68×'],
    [ratio(1, 0), '-'],
    [ratio(undefined, 1), '-'],
    [bytes(311), '311 B'],
    [bytes(16_512), '16.5 KB'],
    [bytes(32_400_000), '32.4 MB'],
  ])('%s is %s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
