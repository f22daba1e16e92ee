import { parseDecimalAmount, roundTo, toMajor, toMinor } from './money';

describe('money', () => {
  it.each([
    [1.005, 2, 1.01],
    [2.675, 2, 2.68],
    [-1.005, 2, -1.01],
    [0.12345, 4, 0.1235],
    [12, 2, 12],
  ])('roundTo(%p, %p) = %p', (v, d, expected) => {
    expect(roundTo(v, d)).toBe(expected);
  });

  it('converts between minor and major units exactly', () => {
    expect(toMajor(1234)).toBe(12.34);
    expect(toMajor(1234, 1)).toBe(1234);
    expect(toMinor(19.99)).toBe(1999);
    expect(toMinor(0.29)).toBe(29);
    expect(() => toMinor(Number.NaN)).toThrow(RangeError);
  });
});

describe('parseDecimalAmount', () => {
  it.each([
    ['12.34', 100, 1234],
    ['0.29', 100, 29],
    ['7', 100, 700],
    ['7.5', 100, 750],
    ['7.500', 100, 750],
    ['1500', 1, 1500],
    ['1500.0', 1, 1500],
  ])('%s (x%p) = %p', (text, per, expected) => {
    expect(parseDecimalAmount(text, per)).toBe(expected);
  });

  it.each(['', 'abc', '-1', '1e3', '1.234', '12,34', ' . ', '1.5'])(
    'rejects %p where it does not fit',
    (text) => {
      expect(parseDecimalAmount(text, text === '1.5' ? 1 : 100)).toBeUndefined();
    },
  );
});
