import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 is enough for keys with 190 bits of entropy; a slow hash protects low-entropy passwords. */
export function hashApiKey(clearKey: string): Buffer {
  return createHash('sha256').update(clearKey, 'utf8').digest();
}

/** The shape every key is generated in: `tcg_` + 32 base62 characters. */
const API_KEY_PATTERN = /^tcg_[0-9A-Za-z]{32}$/;
const API_KEY_LENGTH = 36;

/**
 * Whether a presented value could be a key at all. The gateway asks this before hashing or
 * querying, so a malformed value costs neither; the length test comes first so an oversized header
 * never reaches the regex (which is linear anyway: one character class, no alternation).
 */
export function isWellFormedApiKey(value: string): boolean {
  return value.length === API_KEY_LENGTH && API_KEY_PATTERN.test(value);
}

/** `tcg_` + 32 base62 characters. */
export function generateApiKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(64);
  let out = '';
  for (const b of bytes) {
    if (b < 248) out += alphabet[b % 62]; // 248 = 4 × 62: no modulo bias
    if (out.length === 32) break;
  }
  return `tcg_${out}`;
}
