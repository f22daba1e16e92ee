import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('spells objects with their members in any order, and without undefined ones, alike', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: undefined } })).toBe(
      canonicalJson({ a: { d: [2, 1] }, b: 1 }),
    );
    expect(canonicalJson({ a: { d: [2, 1] } })).toBe('{"a":{"d":[2,1]}}');
  });

  it('sorts the members of a Set but keeps the order of an array', () => {
    expect(canonicalJson({ s: new Set(['30d', '7d']) })).toBe(canonicalJson({ s: new Set(['7d', '30d']) }));
    expect(canonicalJson(['EU', 'NA'])).not.toBe(canonicalJson(['NA', 'EU']));
  });
});
