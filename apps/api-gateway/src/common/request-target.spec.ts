import fc from 'fast-check';
import { isRejection, MAX_TARGET_LENGTH, parseRequestTarget } from './request-target';

describe('parseRequestTarget', () => {
  it.each([
    ['/v1/cards?game=x', 'v1', '/v1/cards', 'game=x'],
    ['/v2/cards', 'v2', '/v2/cards', ''],
    ['/v2', 'v2', '/v2', ''],
    ['/v2?q=a', 'v2', '/v2', 'q=a'],
    ['/v1/cards/', 'v1', '/v1/cards/', ''],
    ['/v2/cards?q=a%2F..%2e', 'v2', '/v2/cards', 'q=a%2F..%2e'],
    ['/v2/cards/abc%20def', 'v2', '/v2/cards/abc%20def', ''],
    ['/health', undefined, '/health', ''],
    ['/V2/cards', undefined, '/V2/cards', ''],
    ['/v22/cards', undefined, '/v22/cards', ''],
  ])('accepts %s as %s', (raw, version, path, query) => {
    expect(parseRequestTarget(raw)).toEqual({ raw, version, path, query });
  });

  it.each([
    ['//v1/cards', 404, undefined],
    ['/v1//cards', 400, 'v1'],
    ['/v1/../v2/cards', 400, 'v1'],
    ['/v1/./cards', 400, 'v1'],
    ['/v2/cards/..', 400, 'v2'],
    ['/v1/%2e%2e/v2/cards', 400, 'v1'],
    ['/v1/%2E%2E/v2/cards', 400, 'v1'],
    ['/v2%2fcards', 404, undefined],
    ['/v2%2Fcards', 404, undefined],
    ['/v1/cards%5c..', 400, 'v1'],
    ['/v1\\..\\v2\\cards', 404, undefined],
    ['/v2/%63ards', 400, 'v2'],
    ['/v2/cards%', 400, 'v2'],
    ['/v2/cards%zz', 400, 'v2'],
    ['/v2/cards#frag', 400, 'v2'],
    ['/v2/caf\u00e9', 400, 'v2'],
    ['http://evil/v2/cards', 404, undefined],
    ['*', 404, undefined],
    ['', 404, undefined],
    [`/v2/cards?q=${'a'.repeat(MAX_TARGET_LENGTH)}`, 414, 'v2'],
  ])('refuses %s with %d in the shape of %s', (raw, status, version) => {
    const result = parseRequestTarget(raw);
    expect(isRejection(result) && { status: result.status, version: result.version }).toEqual({
      status,
      version,
    });
  });

  it('forwards exactly what it accepted, which never has a dot segment, "//" or a backslash', () => {
    const piece = fc.constantFrom(
      '/',
      '.',
      '..',
      'v1',
      'v2',
      'V2',
      'cards',
      '%2e',
      '%2F',
      '%5C',
      '\\',
      '?',
      'a',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const raw = pieces.join('');
        const result = parseRequestTarget(raw);
        if (isRejection(result)) return;
        expect(result.raw).toBe(raw);
        expect(decodeURIComponent(result.path).split('/')).not.toContain('..');
        expect(decodeURIComponent(result.path).split('/').slice(1, -1)).not.toContain('');
        expect(decodeURIComponent(result.path)).not.toContain('\\');
        expect(result.version === 'v2').toBe(result.path === '/v2' || result.path.startsWith('/v2/'));
      }),
    );
  });
});
