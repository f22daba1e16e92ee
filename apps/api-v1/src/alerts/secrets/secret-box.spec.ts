import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localSecretKey, parseSecretKey, parseSecretKeys, SecretBox } from './secret-box';

const key = (id: string) => ({ id, key: randomBytes(32) });
const SECRET = 'whsec_' + randomBytes(24).toString('base64');

describe('SecretBox (AES-256-GCM, key id with each ciphertext)', () => {
  it('opens what it sealed, and the stored form shows neither the secret nor any of its base64', () => {
    const box = new SecretBox(key('k1'));
    const sealed = box.seal(SECRET);
    expect(sealed).toMatch(/^v1\.k1\./);
    expect(sealed).not.toContain(SECRET.slice(6, 20));
    expect(box.open(sealed)).toBe(SECRET);
    expect(box.seal(SECRET)).not.toBe(sealed); // a fresh nonce each time
  });

  it('round-trips any text', () => {
    const box = new SecretBox(key('k1'));
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => box.open(box.seal(s)) === s));
  });

  it('reads a plain secret not yet sealed as it is, and says it needs sealing', () => {
    const box = new SecretBox(key('k1'));
    expect(box.open(SECRET)).toBe(SECRET);
    expect(box.isCurrent(SECRET)).toBe(false);
    expect(box.isCurrent(box.seal(SECRET))).toBe(true);
  });

  it("opens an old key's ciphertext while rotating, and reseals it under the current key", () => {
    const k1 = key('k1');
    const old = new SecretBox(k1).seal(SECRET);
    const rotated = new SecretBox(key('k2'), [k1]);
    expect(rotated.open(old)).toBe(SECRET);
    expect(rotated.isCurrent(old)).toBe(false);
    const resealed = rotated.reseal(old);
    expect(resealed).toMatch(/^v1\.k2\./);
    expect(rotated.open(resealed)).toBe(SECRET);
  });

  it('refuses a ciphertext of an unknown key, and one altered', () => {
    const sealed = new SecretBox(key('k1')).seal(SECRET);
    expect(() => new SecretBox(key('k2')).open(sealed)).toThrow(/key k1 is not configured/);
    const box = new SecretBox(key('k1'));
    const tampered = box.seal(SECRET).slice(0, -2) + 'AA';
    expect(() => box.open(tampered)).toThrow();
  });

  it('takes only a whole 16-byte tag, never a truncated one GCM would check', () => {
    const box = new SecretBox(key('k1'));
    // A nonce and 4 bytes: GCM would check a 32-bit tag over an empty text.
    const short = `v1.k1.${randomBytes(12 + 4).toString('base64url')}`;
    expect(() => box.open(short)).toThrow(/too short/);
  });

  it('refuses two keys under one id', () => {
    expect(() => new SecretBox(key('k1'), [key('k1')])).toThrow(/distinct ids/);
  });
});

describe('secret keys from the environment', () => {
  const b64 = randomBytes(32).toString('base64');
  it.each([
    [`k1:${b64}`, 'k1'],
    [`2026-12_rotation:${b64}`, '2026-12_rotation'],
  ])('reads %s', (text, id) => {
    expect(parseSecretKey(text, 'ALERT_SECRET_KEY')).toMatchObject({ id });
  });

  it.each([
    [b64, 'id:base64'],
    [`k1:${randomBytes(16).toString('base64')}`, '32 bytes'],
    [`k.1:${b64}`, 'id:base64'],
  ])('refuses %s', (text, why) => {
    expect(() => parseSecretKey(text, 'ALERT_SECRET_KEY')).toThrow(new RegExp(`ALERT_SECRET_KEY.*${why}`));
  });

  it('reads a comma-separated list of old keys', () => {
    expect(parseSecretKeys(`a:${b64}, b:${b64}`, 'ALERT_SECRET_OLD_KEYS').map((k) => k.id)).toEqual([
      'a',
      'b',
    ]);
    expect(parseSecretKeys(undefined, 'ALERT_SECRET_OLD_KEYS')).toEqual([]);
  });

  it('makes a local key once, readable by its owner only, and reads the same one afterwards', () => {
    const dir = mkdtempSync(join(tmpdir(), 'alert-key-'));
    try {
      const first = localSecretKey(join(dir, 'data'));
      const file = join(dir, 'data', 'alert-secret.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toMatch(/^local-[0-9a-f]{8}:/);
      expect(localSecretKey(join(dir, 'data'))).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
