import { createHmac, randomBytes } from 'node:crypto';

/** What a secret starts with, as the Standard Webhooks libraries expect it. */
const SECRET_PREFIX = 'whsec_';
/** 192 bits: the Standard Webhooks range is 24 to 64 bytes. */
const SECRET_BYTES = 24;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Printable ASCII without space: the id goes into a header and into the signed content as is. */
const MESSAGE_ID = /^[\x21-\x7e]{1,256}$/;

/** A new signing secret for a subscriber: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * The key bytes of a `whsec_` secret. A malformed secret is a bug in the caller (secrets are only
 * made by newWebhookSecret), so it throws rather than signing with a key no receiver can use.
 */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0)
    throw new Error('webhook secret must be "whsec_" followed by base64');
  return Buffer.from(encoded, 'base64');
}

function checkMessage(id: string, timestampSeconds: number): void {
  if (!MESSAGE_ID.test(id)) throw new Error('webhook id must be 1-256 printable ASCII characters');
  // Receivers compare it with their clock in whole seconds; a fraction or a millisecond value
  // would be signed as written and then refused by every verifier.
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0)
    throw new RangeError('webhook timestamp must be a non-negative integer number of seconds');
}

/**
 * The `webhook-signature` header value for one message: `v1,` and the base64 HMAC-SHA256, keyed
 * with the secret's bytes, of `${id}.${timestampSeconds}.${body}` (the body's UTF-8 bytes, exactly
 * as sent). Throws on a malformed secret, id or timestamp.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  checkMessage(id, timestampSeconds);
  const signature = createHmac('sha256', secretKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${signature}`;
}

/** Every header of one delivery attempt of a signed JSON message (Standard Webhooks names). */
export function webhookHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
    'content-type': 'application/json',
    'user-agent': 'tcg-pricing-webhooks/1',
  };
}
