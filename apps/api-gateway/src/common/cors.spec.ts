import { joinVary, parseCorsOrigins } from './cors';

describe('parseCorsOrigins', () => {
  it('reads any origin, or a list of exact origins in lower case', () => {
    expect(parseCorsOrigins(' * ')).toBe('*');
    expect(parseCorsOrigins('https://Shop.example, http://localhost:3000')).toEqual(
      new Set(['https://shop.example', 'http://localhost:3000']),
    );
  });

  it.each([
    'https://shop.example/',
    'shop.example',
    'https://shop.example/path',
    'ftp://x.example',
    '*,https://a.example',
  ])('refuses %s, naming it', (value) => {
    expect(() => parseCorsOrigins(value)).toThrow(/is not an origin/);
  });
});

describe('joinVary', () => {
  it('joins the service’s Vary with CORS’s, either one alone, or none', () => {
    expect(joinVary('Accept-Encoding', 'Origin')).toBe('Accept-Encoding, Origin');
    expect(joinVary('Accept-Encoding', undefined)).toBe('Accept-Encoding');
    expect(joinVary(undefined, 'Origin')).toBe('Origin');
    expect(joinVary(undefined, undefined)).toBeUndefined();
  });
});
