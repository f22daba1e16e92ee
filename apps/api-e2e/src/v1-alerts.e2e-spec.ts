import { encodeUsage, INTERNAL_HEADERS } from '@tcg/http-service/contract';
import { withTestDatabase } from '@tcg/persistence/testing';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { dragon, knightNm, nm, seedRawCatalogue, T_NOW } from './fixtures';
import { importPrices } from './import-prices';
import { newKey } from './keys';
import { INTERNAL_TOKEN, type ServiceProcess, startApiV1, startStack, type Stack } from './stack';

interface Received {
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string;
  readonly at: number;
  /** The status the receiver answered; null: it never answered (it hung). */
  status: number | null;
}

type Behaviour = 'ok' | 'fail' | 'hang';

/** An alert or a delivery attempt as the answers carry them; the assertions check the fields. */
interface Item {
  readonly id: string;
  readonly secret: string;
  readonly status: string;
  readonly [field: string]: unknown;
}

/** A v1 answer: one item, or a list of them, with `_metadata`; or an error. */
interface Answer {
  readonly data: Item & readonly Item[];
  readonly _metadata: { readonly apiRequestsUsed: number };
  readonly error: string;
  readonly code: string;
}

/** A webhook receiver on 127.0.0.1 that records what reaches it and answers as told. */
async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  behave(next: Behaviour | ((n: number) => Behaviour)): void;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  let behaviour: (n: number) => Behaviour = () => 'ok';
  const hung: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
        at: Date.now(),
        status: null,
      };
      received.push(r);
      const what = behaviour(received.length);
      if (what === 'hang') return void hung.push(res);
      r.status = what === 'ok' ? 204 : 503;
      res.writeHead(r.status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    behave: (next) => (behaviour = typeof next === 'function' ? next : () => next),
    close: async () => {
      hung.forEach((res) => res.destroy());
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * What `check` gives once it gives something, asked every `everyMs` (every 50 ms for what the
 * receiver saw; more slowly through the API, whose calls count against the key's quota).
 */
async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Each import an hour after the previous one, so it is the variant's latest observation. */
let t = T_NOW;
const importPrice = async (variantUuid: string, usd: string) =>
  expect(
    await importPrices([
      { variant_id: variantUuid, region: 'NA', time: (t += 3600), price: usd, currency: 'USD' },
    ]),
  ).toBe(0);

/** What a sender instance is started with: quick polls and retries, private receivers allowed. */
const SENDER = {
  ALERT_SENDER: 'on',
  ALERT_PRIVATE_URLS: 'allow',
  ALERT_POLL_MS: '50',
  ALERT_RETRY_BASE_MS: '1000',
  ALERT_LEASE_MS: '1500',
};

describe('price alerts through the gateway', () => {
  let stack: Stack;
  const senders: ServiceProcess[] = [];
  const sender = async (env: Record<string, string> = {}) => {
    const s = await startApiV1({ ...SENDER, ...env });
    senders.push(s);
    return s;
  };

  const call = async (key: string, method: string, path: string, body?: object) => {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Answer) : undefined, res };
  };

  beforeAll(async () => {
    await seedRawCatalogue();
    // The services' own api-v1 sends nothing (ALERT_SENDER off, the stack's default): each test
    // starts the senders it needs, to kill one or run two.
    stack = await startStack({ v1Env: { ALERT_PRIVATE_URLS: 'allow' } });
  });

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    await withTestDatabase((ds) => ds.query('DELETE FROM alerts'));
  });

  afterAll(async () => {
    await stack?.close();
  });

  it("creates, lists, reads and deletes a key's alerts; another key sees 404; every call is metered", async () => {
    const key = await newKey('starter');
    const other = await newKey('starter');
    const created = await call(key, 'POST', '/v1/alerts', {
      card_id: dragon.id,
      region: 'us',
      rule: 'price_above',
      value: 450.5,
      url: 'http://127.0.0.1:9/hook',
    });
    expect(created.status).toBe(201);
    expect(created.res.headers.get('cache-control')).toBe('no-store');
    const alert = created.body!['data'];
    expect(alert).toMatchObject({
      card_id: dragon.id,
      card_name: 'Test Dragon',
      variant_id: null,
      region: 'US',
      currency: 'USD',
      rule: 'price_above',
      value: 450.5,
      url: 'http://127.0.0.1:9/hook',
      status: 'active',
      holds: false,
      disabled_reason: null,
    });
    expect(alert.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.body!['_metadata'].apiRequestsUsed).toBe(1);

    const listed = await call(key, 'GET', '/v1/alerts');
    expect(listed.body!['data']).toEqual([{ ...alert, secret: undefined }].map(({ secret: _s, ...a }) => a));
    expect(listed.body!['_metadata'].apiRequestsUsed).toBe(2);
    expect((await call(key, 'GET', `/v1/alerts/${alert.id}`)).body!['data'].id).toBe(alert.id);
    expect((await call(key, 'GET', `/v1/alerts/${alert.id}/deliveries`)).body!['data']).toEqual([]);

    for (const [method, path] of [
      ['GET', `/v1/alerts/${alert.id}`],
      ['GET', `/v1/alerts/${alert.id}/deliveries`],
      ['DELETE', `/v1/alerts/${alert.id}`],
      ['GET', '/v1/alerts/not-a-uuid'],
    ] as const)
      expect(await call(other, method, path)).toMatchObject({
        status: 404,
        body: { error: 'Alert not found.', code: 'NOT_FOUND' },
      });
    expect((await call(other, 'GET', '/v1/alerts')).body!['data']).toEqual([]);

    expect((await call(key, 'DELETE', `/v1/alerts/${alert.id}`)).status).toBe(204);
    expect((await call(key, 'GET', `/v1/alerts/${alert.id}`)).status).toBe(404);
    expect((await call(key, 'GET', '/v1/alerts')).body!['_metadata'].apiRequestsUsed).toBe(7);
  });

  it("refuses what it cannot watch, naming the field, and caps a key's alerts by plan", async () => {
    const key = await newKey('starter');
    const base = { variant_id: nm.id, rule: 'change_24h', value: 10, url: 'http://127.0.0.1:9/' };
    for (const [body, parameter] of [
      [{ ...base, rule: 'price_sideways' }, 'rule'],
      [{ ...base, value: -1 }, 'value'],
      [{ ...base, rule: 'price_above', value: 1.005 }, 'value'],
      [{ ...base, rule: 'price_above', value: 0.001 }, 'value'],
      [{ ...base, region: 'Atlantis' }, 'region'],
      [{ ...base, card_id: dragon.id }, 'card_id'],
      [{ ...base, colour: 'red' }, 'colour'],
      [{ ...base, url: 'x'.repeat(3000) }, 'url'],
    ] as const) {
      const answer = await call(key, 'POST', '/v1/alerts', body);
      expect({ parameter, status: answer.status, code: answer.body!['code'] }).toEqual({
        parameter,
        status: 400,
        code: 'INVALID_REQUEST',
      });
      expect(answer.body!['error']).toContain(parameter);
    }
    expect(await call(key, 'POST', '/v1/alerts', { ...base, variant_id: 'no-such-variant' })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    // The free plan's cap (and its 10 requests a minute) on a key of its own.
    const free = await newKey('free');
    for (let i = 0; i < 5; i++) expect((await call(free, 'POST', '/v1/alerts', base)).status).toBe(201);
    expect(await call(free, 'POST', '/v1/alerts', base)).toMatchObject({
      status: 403,
      body: {
        code: 'FORBIDDEN',
        error: 'The free plan allows 5 alerts per key; delete one to create another.',
      },
    });
  });

  it('refuses URLs to private, loopback, link-local and metadata addresses, and http, when private ones are not allowed', async () => {
    // An api-v1 with the default setting, spoken to as the gateway does.
    const strict = await startApiV1({});
    senders.push(strict);
    const usage = encodeUsage({
      plan: 'starter',
      minute: { limit: 60, used: 1, resetSeconds: 30 },
      day: { limit: 2000, used: 1, resetSeconds: 3600 },
      month: { limit: 30000, used: 1, resetSeconds: 86400 },
    });
    const create = async (url: string) => {
      const res = await fetch(`${strict.url}/v1/alerts`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [INTERNAL_HEADERS.credential]: INTERNAL_TOKEN,
          [INTERNAL_HEADERS.usage]: usage,
          [INTERNAL_HEADERS.keyId]: '00000000-0000-4000-8000-0000000000aa',
        },
        body: JSON.stringify({ variant_id: nm.id, rule: 'price_above', value: 50, url }),
      });
      return { status: res.status, body: (await res.json()) as { error: string; code: string } };
    };
    // One rule and one text for every host refused, whatever it is or whether it resolves: no
    // map of internal names and addresses (docs/alerts.md).
    for (const [url, rule] of [
      ['https://127.0.0.1/hook', 'destination_refused'],
      ['https://10.0.0.1/hook', 'destination_refused'],
      ['https://169.254.169.254/latest/meta-data', 'destination_refused'],
      ['https://[::1]/hook', 'destination_refused'],
      ['https://2130706433/hook', 'destination_refused'],
      ['https://localhost/hook', 'destination_refused'],
      ['https://nonexistent.invalid/hook', 'destination_refused'],
      ['http://hooks.example.com/hook', 'https_required'],
      ['https://user:pass@hooks.example.com/', 'credentials'],
      ['not a url', 'url_syntax'],
    ] as const) {
      const answer = await create(url);
      expect({ url, status: answer.status, code: answer.body.code }).toEqual({
        url,
        status: 400,
        code: 'INVALID_REQUEST',
      });
      expect(answer.body.error).toContain(`'url' (rule ${rule})`);
    }
  });

  it('sends one signed event when an import crosses the threshold, none while it stays crossed, with two instances sending', async () => {
    const receiver = await startReceiver();
    try {
      await Promise.all([sender(), sender()]);
      const key = await newKey('starter');
      const post = (value: number) =>
        call(key, 'POST', '/v1/alerts', { variant_id: nm.id, rule: 'price_above', value, url: receiver.url });
      const main = (await post(50)).body!['data'];
      const control = (await post(60)).body!['data'];

      await importPrice(nm.uuid, '55.00');
      const [first] = await until(
        'the first event',
        () => receiver.received.length >= 1 && receiver.received,
      );
      const event = JSON.parse(first!.body) as { type: string; data: Record<string, unknown> };
      expect(event.type).toBe('price_alert.triggered');
      expect(event.data).toMatchObject({
        alert_id: main.id,
        variant_id: nm.id,
        region: 'US',
        currency: 'USD',
        rule: 'price_above',
        value: 50,
        price: 55,
      });
      // The signature verifies with the secret shown at creation, by an independent implementation.
      const headers = {
        'webhook-id': first!.id,
        'webhook-timestamp': first!.timestamp,
        'webhook-signature': first!.signature,
      };
      expect(() => new Webhook(main.secret).verify(first!.body, headers)).not.toThrow();
      expect(() => new Webhook(control.secret).verify(first!.body, headers)).toThrow();

      // Still above 50: only the control alert, which crosses 60 now, fires.
      await importPrice(nm.uuid, '65.00');
      await until('the control event', () => receiver.received.some((r) => r.body.includes(control.id)));
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.received.map((r) => JSON.parse(r.body).data.alert_id)).toEqual([main.id, control.id]);
      // One request per event, though two instances poll every 50 ms.
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(2);
      const deliveries = (await call(key, 'GET', `/v1/alerts/${main.id}/deliveries`)).body!['data'];
      expect(deliveries).toEqual([
        {
          event_id: first!.id,
          attempt: 1,
          at: expect.any(String),
          status: 204,
          duration_ms: expect.any(Number),
          error: null,
        },
      ]);
      expect((await call(key, 'GET', `/v1/alerts/${main.id}`)).body!['data']).toMatchObject({
        holds: true,
        last_fired_at: expect.any(String),
      });
    } finally {
      await receiver.close();
    }
  });

  it('delivers, once, an event whose sender was killed between claiming and sending it', async () => {
    const receiver = await startReceiver();
    try {
      receiver.behave((n) => (n === 1 ? 'hang' : 'ok'));
      // A lease longer than a sender's restart, so that a restarted sender ignoring it would show.
      const LEASE = { ALERT_LEASE_MS: '6000' };
      const first = await sender(LEASE);
      const key = await newKey('starter');
      const alert = (
        await call(key, 'POST', '/v1/alerts', {
          variant_id: knightNm.id,
          rule: 'price_above',
          value: 70,
          url: receiver.url,
        })
      ).body!['data'];
      await importPrice(knightNm.uuid, '75.00');
      await until('the attempt that hangs', () => receiver.received.length === 1);
      // The claim's lease, as the outbox holds it (the database's clock is this machine's).
      const [{ leaseEnd }] = await withTestDatabase((ds) =>
        ds.query<{ leaseEnd: number }[]>(
          `SELECT (extract(epoch FROM claimed_until) * 1000)::float8 AS "leaseEnd" FROM alert_events WHERE alert_id = $1`,
          [alert.id],
        ),
      );
      // kill -9 while the attempt is under way: claimed, sent, never recorded.
      await first.stop('SIGKILL');
      await sender(LEASE);
      const delivered = await until('the delivery after the restart', () =>
        receiver.received.find((r) => r.status === 204),
      );
      expect(delivered.id).toBe(receiver.received[0]!.id);
      // Claimed again only once the lease had passed.
      expect(delivered.at).toBeGreaterThanOrEqual(leaseEnd);
      await new Promise((r) => setTimeout(r, 2000));
      expect(receiver.received.filter((r) => r.status === 204)).toHaveLength(1);
      expect(receiver.received).toHaveLength(2);
      const deliveries = (await call(key, 'GET', `/v1/alerts/${alert.id}/deliveries`)).body!['data'];
      expect(deliveries).toEqual([expect.objectContaining({ attempt: 2, status: 204, error: null })]);
    } finally {
      await receiver.close();
    }
  });
});
