import { roundTo, toMajor, toMinor } from './money';

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
