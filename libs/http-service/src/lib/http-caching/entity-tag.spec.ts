import { entityTag, ifNoneMatchHits } from './entity-tag';

describe('entity tags', () => {
  it('gives a strong tag per coding and one weak tag for all', () => {
    expect(entityTag('abc', false, 'identity')).toBe('"abc"');
    expect(entityTag('abc', false, 'br')).toBe('"abc-br"');
    expect(entityTag('abc', false, 'gzip')).toBe('"abc-gzip"');
    expect(entityTag('abc', true, 'br')).toBe('W/"abc"');
  });

  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"abc-br"', true],
    ['"abc-gzip"', true],
    ['"abc-zstd"', false],
    ['"other", "abc"', true],
    ['"other",W/"abc"', true],
    ['*', true],
    [' * ', true],
    ['abc', false], // unquoted: not an entity tag
    ['"ab"', false],
    ['"abcd"', false],
    [['"x"', '"abc"'], true],
  ] as const)('If-None-Match %j against "abc" → %s', (header, hit) => {
    expect(ifNoneMatchHits(header as string | string[] | undefined, 'abc')).toBe(hit);
  });

  it('treats an oversized header as matching nothing', () => {
    expect(ifNoneMatchHits(`${'"x",'.repeat(1000)}"abc"`, 'abc')).toBe(false);
  });
});
