import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateEnvironment } from '../../config/environment';
import { alertSecretBox } from './alert-secrets';

const BASE = { DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'x'.repeat(32) };
const key = () => randomBytes(32).toString('base64');

describe("api-v1's webhook secret key", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'alert-secrets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('seals with ALERT_SECRET_KEY and opens with ALERT_SECRET_OLD_KEYS too', () => {
    const old = validateEnvironment({ ...BASE, ALERT_SECRET_KEY: `k1:${key()}` });
    const sealed = alertSecretBox(old).seal('whsec_x');
    const rotated = validateEnvironment({
      ...BASE,
      ALERT_SECRET_KEY: `k2:${key()}`,
      ALERT_SECRET_OLD_KEYS: old.ALERT_SECRET_KEY,
    });
    expect(alertSecretBox(rotated).currentKeyId).toBe('k2');
    expect(alertSecretBox(rotated).open(sealed)).toBe('whsec_x');
  });

  it('refuses to start in production without a key, rather than make one per instance', () => {
    expect(() =>
      alertSecretBox(validateEnvironment({ ...BASE, NODE_ENV: 'production', TCG_DATA_DIR: dir })),
    ).toThrow(/ALERT_SECRET_KEY is required in production/);
    expect(existsSync(join(dir, 'alert-secret.key'))).toBe(false);
  });

  it('makes and keeps a local key under TCG_DATA_DIR without one (npm start)', () => {
    const env = validateEnvironment({ ...BASE, TCG_DATA_DIR: dir });
    const sealed = alertSecretBox(env).seal('whsec_x');
    expect(existsSync(join(dir, 'alert-secret.key'))).toBe(true);
    expect(alertSecretBox(env).open(sealed)).toBe('whsec_x'); // the next start reads the same key
  });

  it.each([['k1'], [`k1:${key()},`], ['k 1:abc']])('refuses ALERT_SECRET_KEY=%s at boot', (value) => {
    expect(() => validateEnvironment({ ...BASE, ALERT_SECRET_KEY: value })).toThrow(/ALERT_SECRET_KEY/);
  });

  it('refuses a key that is not 32 bytes', () => {
    const env = validateEnvironment({
      ...BASE,
      ALERT_SECRET_KEY: `k1:${randomBytes(16).toString('base64')}`,
    });
    expect(() => alertSecretBox(env)).toThrow(/32 bytes/);
  });
});
