import { percentChange } from './change';

describe('percentChange', () => {
  it.each([
    [1200, 900, 100 / 3],
    [200, 100, 100],
    [100, 200, -50],
    [0, 200, -100],
    [700, 700, 0],
    [0, 0, null], // no percent of nothing
    [300, 0, null],
    [300, null, null], // nothing to measure from
    [null, 300, null],
    [null, null, null],
  ])('from %p measured against %p is %p', (current, reference, expected) => {
    const change = percentChange(current, reference);
    if (expected === null) expect(change).toBeNull();
    else expect(change).toBeCloseTo(expected, 12);
  });

  it('is unrounded: rounding happens once, at the edge', () => {
    expect(percentChange(1006, 1003)).toBe(((1006 - 1003) / 1003) * 100);
  });
});
