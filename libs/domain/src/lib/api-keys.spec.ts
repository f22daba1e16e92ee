import fc from 'fast-check';
import {
  apiKeyShape,
  ApiKeySigner,
  generateApiKey,
  generateLegacyApiKey,
  isWellFormedApiKey,
  UNSET_API_KEY_SECRET,
} from './api-keys';

describe('API key shapes and checks', () => {
  const signer = new ApiKeySigner('spec-secret-0123456789abcdef');

  it.each([
    ['a checked key is checked', signer.generate(), 'checked'],
    ['a legacy key is legacy', generateLegacyApiKey(), 'legacy'],
    ['too short', 'tcg_abc', undefined],
    ['a character outside base62', `tcg_${'a'.repeat(42)}-`, undefined],
    ['another prefix', `abc_${'a'.repeat(43)}`, undefined],
    ['between the two lengths', `tcg_${'a'.repeat(40)}`, undefined],
    ['oversized', `tcg_${'a'.repeat(100_000)}`, undefined],
  ])('%s', (_name, key, shape) => {
    expect(apiKeyShape(key)).toBe(shape);
    expect(isWellFormedApiKey(key)).toBe(shape !== undefined);
  });

  it('issues keys of 47 characters that verify under their secret only', () => {
    const key = signer.generate();
    expect(key).toMatch(/^tcg_[0-9A-Za-z]{43}$/);
    expect(signer.verify(key)).toBe(true);
    expect(new ApiKeySigner('another-secret-0123456789').verify(key)).toBe(false);
    expect(new ApiKeySigner(undefined).verify(key)).toBe(false);
    expect(signer.verify(generateLegacyApiKey())).toBe(false);
  });

  it('keeps verifying keys of a previous secret after a rotation, and issues under the new one', () => {
    const rotated = new ApiKeySigner('the-new-secret-0123456789', ['spec-secret-0123456789abcdef']);
    const old = signer.generate();
    expect(rotated.verify(old)).toBe(true);
    expect(signer.verify(rotated.generate())).toBe(false);
  });

  it('issues under the public default when no secret is configured', () => {
    expect(new ApiKeySigner(undefined).verify(generateApiKey())).toBe(true);
    expect(new ApiKeySigner(UNSET_API_KEY_SECRET).verify(generateApiKey())).toBe(true);
  });

  it('refuses every key whose body or check was changed (property)', () => {
    const key = signer.generate();
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: key.length - 1 }),
        fc.integer({ min: 1, max: 61 }),
        (at, shift) => {
          const changed = alphabet[(alphabet.indexOf(key[at]!) + shift) % 62]!;
          const tampered = key.slice(0, at) + changed + key.slice(at + 1);
          return apiKeyShape(tampered) === 'checked' && !signer.verify(tampered);
        },
      ),
    );
  });
});
