import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlanName } from './plans';

/** SHA-256 is enough for keys with 190 bits of entropy; a slow hash protects low-entropy passwords. */
export function hashApiKey(clearKey: string): Buffer {
  return createHash('sha256').update(clearKey, 'utf8').digest();
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The two shapes a key can have:
 * - `checked` (issued since issue 37): `tcg_` + 32 random base62 characters + an 11-character
 *   check, the first 64 bits of HMAC-SHA256(secret, the first 36 characters) in base62; the
 *   gateway verifies the check in memory, so a forged or random key costs no lookup;
 * - `legacy` (issued before): `tcg_` + 32 random base62 characters, no check. The gateway holds
 *   the digests of the legacy keys still active in memory instead (see docs/keys-and-limits.md).
 */
export type ApiKeyShape = 'checked' | 'legacy';

const LEGACY_PATTERN = /^tcg_[0-9A-Za-z]{32}$/;
const CHECKED_PATTERN = /^tcg_[0-9A-Za-z]{43}$/;
const LEGACY_LENGTH = 36;
const CHECK_LENGTH = 11; // 62^11 > 2^64
const CHECKED_LENGTH = LEGACY_LENGTH + CHECK_LENGTH;

/**
 * The shape of a presented value, or undefined when it could not be a key at all. The gateway asks
 * this before anything else, so a malformed value costs nothing; the length test comes first so an
 * oversized header never reaches a regex (which is linear anyway: one character class).
 */
export function apiKeyShape(value: string): ApiKeyShape | undefined {
  if (value.length === CHECKED_LENGTH) return CHECKED_PATTERN.test(value) ? 'checked' : undefined;
  if (value.length === LEGACY_LENGTH) return LEGACY_PATTERN.test(value) ? 'legacy' : undefined;
  return undefined;
}

/** Whether a presented value could be a key at all, of either shape. */
export function isWellFormedApiKey(value: string): boolean {
  return apiKeyShape(value) !== undefined;
}

/** `n` base62 characters from the system's random source, without modulo bias. */
function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248) out += ALPHABET[b % 62]; // 248 = 4 × 62: no modulo bias
      if (out.length === n) break;
    }
  }
  return out;
}

/** The 64-bit value in exactly 11 base62 characters, most significant first. */
function base62Fixed(value: bigint): string {
  let out = '';
  for (let i = 0; i < CHECK_LENGTH; i++) {
    out = ALPHABET[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out;
}

/**
 * Used when no API_KEY_SECRET is configured (`npm start`, the tests). Public, so the check is then
 * only a checksum: it stops random and mistyped keys, not keys crafted by someone who read this.
 */
export const UNSET_API_KEY_SECRET = 'tcg-api-keys:no-secret-configured';

/** Shortest API_KEY_SECRET accepted: 128 bits as hex or base64 is 22 to 32 characters. */
export const MIN_API_KEY_SECRET_LENGTH = 16;

/**
 * Issues `checked` keys under one secret and verifies them under it and any earlier ones (a
 * rotation: keys issued under a retired secret keep working while it is listed). The check is a
 * filter in front of the lookup, not the credential: a key passes only if its digest is also in the
 * database, so a leaked secret lets someone craft keys that cost a lookup, never use one.
 */
export class ApiKeySigner {
  private readonly secrets: readonly string[];

  constructor(secret: string | undefined, previous: readonly string[] = []) {
    this.secrets = [secret ?? UNSET_API_KEY_SECRET, ...previous];
  }

  /** A new `checked` key under the current secret. */
  generate(): string {
    const body = `tcg_${randomBase62(32)}`;
    return body + this.check(body, this.secrets[0]!);
  }

  /** Whether a `checked` key's check was made under one of the secrets. Constant time per secret. */
  verify(key: string): boolean {
    if (key.length !== CHECKED_LENGTH) return false;
    const body = key.slice(0, LEGACY_LENGTH);
    const presented = Buffer.from(key.slice(LEGACY_LENGTH), 'latin1');
    let ok = false;
    for (const secret of this.secrets)
      ok = timingSafeEqual(presented, Buffer.from(this.check(body, secret), 'latin1')) || ok;
    return ok;
  }

  private check(body: string, secret: string): string {
    return base62Fixed(createHmac('sha256', secret).update(body, 'latin1').digest().readBigUInt64BE(0));
  }
}

/** A key no one could have been issued before issue 37 (tests, and `DEMO_API_KEY`s of that age). */
export function generateLegacyApiKey(): string {
  return `tcg_${randomBase62(32)}`;
}

/** A `checked` key under the secret the gateway uses when none is configured (tests and `npm start`). */
export function generateApiKey(signer: ApiKeySigner = new ApiKeySigner(undefined)): string {
  return signer.generate();
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly prefix: string;
  readonly plan: PlanName;
  readonly label: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}
