import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One key that seals webhook secrets: its id is stored with each ciphertext. */
export interface SecretKey {
  readonly id: string;
  /** 32 bytes (AES-256). */
  readonly key: Buffer;
}

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Webhook signing secrets at rest (docs/alerts.md, "Secrets at rest"): AES-256-GCM, a fresh 96-bit
 * nonce each time, stored as `v1.<key id>.<base64url(nonce ‖ tag ‖ ciphertext)>`. Seals with the
 * current key; opens with it or any old key still configured (a rotation under way). A stored
 * value without the `v1.` form is a plain secret from before sealing, read as it is until the
 * reseal pass seals it.
 */
export class SecretBox {
  private readonly keys: ReadonlyMap<string, Buffer>;

  constructor(
    private readonly current: SecretKey,
    old: readonly SecretKey[] = [],
  ) {
    const ids = [...old, current].map((k) => k.id);
    // Two keys under one id: which opens a secret would depend on the list's order.
    if (new Set(ids).size !== ids.length)
      throw new Error('Invalid configuration: ALERT_SECRET_KEY and ALERT_SECRET_OLD_KEYS need distinct ids');
    this.keys = new Map([...old, current].map((k) => [k.id, k.key]));
  }

  /** The current key's id: what every stored secret should end up sealed with. */
  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    return `${FORMAT}.${this.current.id}.${sealed}`;
  }

  /** The plain secret; throws for a key not configured or a ciphertext altered. */
  open(stored: string): string {
    const parts = sealedParts(stored);
    if (parts === undefined) return stored;
    const key = this.keys.get(parts.keyId);
    if (key === undefined) throw new Error(`webhook secret sealed with key ${parts.keyId} is not configured`);
    const raw = Buffer.from(parts.body, 'base64url');
    // A body too short for a whole tag would be checked against a truncated one (GCM accepts 4 bytes).
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('webhook secret: sealed value too short');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Whether a stored value is sealed with the current key (nothing to do for it). */
  isCurrent(stored: string): boolean {
    return sealedParts(stored)?.keyId === this.current.id;
  }

  /** Under the current key; throws as `open` does. */
  reseal(stored: string): string {
    return this.seal(this.open(stored));
  }
}

function sealedParts(stored: string): { keyId: string; body: string } | undefined {
  const [format, keyId, body, ...rest] = stored.split('.');
  if (format !== FORMAT || keyId === undefined || body === undefined || rest.length > 0) return undefined;
  return { keyId, body };
}

/** `<id>:<base64 of 32 bytes>`, as ALERT_SECRET_KEY gives it; the error names `variable`. */
export function parseSecretKey(text: string, variable: string): SecretKey {
  const at = text.indexOf(':');
  const id = text.slice(0, at).trim();
  if (at < 0 || !KEY_ID.test(id))
    throw new Error(
      `Invalid configuration: ${variable} must be id:base64 (an id of letters, digits, _ and -)`,
    );
  const key = Buffer.from(text.slice(at + 1).trim(), 'base64');
  if (key.length !== 32)
    throw new Error(
      `Invalid configuration: ${variable}'s key ${id} must be 32 bytes (openssl rand -base64 32)`,
    );
  return { id, key };
}

/** A comma-separated list of `parseSecretKey`'s form; none when unset. */
export function parseSecretKeys(text: string | undefined, variable: string): SecretKey[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((k) => parseSecretKey(k.trim(), variable));
}

/**
 * The key of a development machine with none configured (`npm start`): made once, at random,
 * in `dataDir/alert-secret.key` (readable by its owner only), and read from there afterwards, so
 * the secrets sealed with it stay readable across restarts.
 */
export function localSecretKey(dataDir: string): SecretKey {
  const file = join(dataDir, 'alert-secret.key');
  mkdirSync(dataDir, { recursive: true });
  try {
    const made = `local-${randomBytes(4).toString('hex')}:${randomBytes(32).toString('base64')}`;
    // `wx`: two processes starting together keep whichever wrote first.
    writeFileSync(file, made, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseSecretKey(readFileSync(file, 'utf8').trim(), file);
}
