import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newWebhookSecret, signWebhook, webhookHeaders } from './webhook-signature';

const now = () => Math.floor(Date.now() / 1000);

describe('webhook signatures (Standard Webhooks)', () => {
  it('makes secrets of 24 random bytes behind whsec_', () => {
    const secrets = Array.from({ length: 20 }, newWebhookSecret);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('matches the published example signature', () => {
    // The example of the Standard Webhooks documentation (and Svix's), computed by another implementation.
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it.each([
    ['a JSON object', 'msg_1', '{"alert":"price_above","cardId":42,"price":"12.50"}'],
    ['an empty body', 'msg_2', ''],
    ['non-ASCII text', 'msg_3', '{"name":"Pokémon — Ünïcödé ✓ 🃏"}'],
    ['a large body', '01J9ZK3Q7W8M2X', JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => i) })],
    ['a body with dots and newlines', 'evt.with.dots', '{"a":"1.2.3"}\n{"b":"\\n"}'],
  ])('is verified by the standardwebhooks package for %s', (_case, id, body) => {
    const secret = newWebhookSecret();
    const timestamp = now();
    const headers = webhookHeaders(secret, id, timestamp, body);
    // Not parsed as JSON: the signature covers any text, and one case is not a single JSON value.
    expect(() => new Webhook(secret).verify(body, headers, { jsonParse: false })).not.toThrow();
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, new Date(timestamp * 1000), body));
  });

  it('sends the Standard Webhooks headers and the JSON content type', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders(secret, 'msg_9', 1700000000, '{}');
    expect(headers).toEqual({
      'webhook-id': 'msg_9',
      'webhook-timestamp': '1700000000',
      'webhook-signature': signWebhook(secret, 'msg_9', 1700000000, '{}'),
      'content-type': 'application/json',
      'user-agent': 'tcg-pricing-webhooks/1',
    });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  const body = '{"alert":"price_below","price":"3.10"}';
  it.each<[string, (h: Record<string, string>) => [string, Record<string, string>]]>([
    ['the body', (h) => [body.replace('3.10', '0.10'), h]],
    ['the body by one trailing space', (h) => [`${body} `, h]],
    [
      'the timestamp',
      (h) => [body, { ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) - 1) }],
    ],
    ['the id', (h) => [body, { ...h, 'webhook-id': 'msg_other' }]],
    [
      'the signature',
      (h) => [body, { ...h, 'webhook-signature': h['webhook-signature'].replace('v1,', 'v1,A') }],
    ],
  ])('fails verification when %s is tampered with', (_case, tamper) => {
    const secret = newWebhookSecret();
    const [tamperedBody, tamperedHeaders] = tamper(webhookHeaders(secret, 'msg_t', now(), body));
    expect(() => new Webhook(secret).verify(tamperedBody, tamperedHeaders)).toThrow(WebhookVerificationError);
  });

  it('fails verification with another secret', () => {
    const headers = webhookHeaders(newWebhookSecret(), 'msg_k', now(), body);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it.each([
    ['no prefix', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['an empty key', 'whsec_'],
    ['non-base64 key', 'whsec_not base64!'],
    ['a truncated key', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS'],
  ])('refuses a secret with %s', (_case, secret) => {
    expect(() => signWebhook(secret, 'msg_1', 1700000000, '{}')).toThrow(/whsec_/);
  });

  it.each([
    ['a fractional timestamp', 'msg_1', 1700000000.5],
    ['a negative timestamp', 'msg_1', -1],
    ['an empty id', '', 1700000000],
    ['an id with a newline', 'msg\n1', 1700000000],
    ['an id with a space', 'msg 1', 1700000000],
  ])('refuses %s', (_case, id, timestamp) => {
    expect(() => signWebhook(newWebhookSecret(), id, timestamp, '{}')).toThrow();
  });
});
