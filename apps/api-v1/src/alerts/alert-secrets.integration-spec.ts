import type { DataVersionSource } from '@tcg/domain';
import {
  CardQueryRepository,
  TypeOrmAlertRepository,
  TypeOrmApiKeyRepository,
  writeCatalogue,
} from '@tcg/persistence';
import { createBackgroundPool } from '@tcg/persistence/nest';
import { tinyCatalogue, useTestDatabase, workerDatabaseUrl } from '@tcg/persistence/testing';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import type { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { validateEnvironment } from '../config/environment';
import { AlertSenderService } from './sender/alert-sender.service';
import { AlertsService } from './alerts.service';
import { SecretBox, type SecretKey } from './secrets/secret-box';

const noVersions: DataVersionSource = { current: () => null, onChange: () => () => undefined };
const k1: SecretKey = { id: 'k1', key: randomBytes(32) };
const k2: SecretKey = { id: 'k2', key: randomBytes(32) };
const env = validateEnvironment({
  DATABASE_URL: 'postgres://unused/x',
  INTERNAL_TOKEN: randomBytes(24).toString('hex'),
  ALERT_PRIVATE_URLS: 'allow',
  ALERT_POLL_MS: '50',
});

/** A receiver on 127.0.0.1 that keeps each request's headers and body and answers 204. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('webhook secrets at rest (PostgreSQL)', () => {
  let ds: DataSource;
  useTestDatabase((opened) => (ds = opened));
  const cat = tinyCatalogue();
  const card = cat.cards[0]!;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const senders: AlertSenderService[] = [];
  const pools: Pool[] = [];

  beforeEach(async () => {
    await writeCatalogue(ds, cat);
    receiver = await startReceiver();
  });

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.onApplicationShutdown()));
    await Promise.all(pools.splice(0).map((p) => p.end()));
    await receiver.close();
  });

  const create = async (box: SecretBox) => {
    const { record } = await new TypeOrmApiKeyRepository(ds).create('starter', 'secrets');
    const service = new AlertsService(new TypeOrmAlertRepository(ds), new CardQueryRepository(ds), box, env);
    const created = await service.create(
      { card_id: card.id, region: 'US', rule: 'price_above', value: 1, url: receiver.url },
      record.id,
      { apiPlan: 'starter' } as UsageMetadataDto,
    );
    return { keyId: record.id, ...created };
  };
  const stored = async (id: string): Promise<string> =>
    ((await ds.query('SELECT secret FROM alerts WHERE id = $1', [id])) as { secret: string }[])[0]!.secret;
  /** The stored secret once it is sealed with `keyId` (the pass runs beside the first deliveries). */
  const resealed = async (id: string, keyId: string): Promise<string> => {
    for (let i = 0; ; i++) {
      const secret = await stored(id);
      if (secret.startsWith(`v1.${keyId}.`) || i === 100) return secret;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const fire = (id: string) =>
    ds.query(`INSERT INTO alert_events (id, alert_id, payload) VALUES (gen_random_uuid(), $1, '{"a":1}')`, [
      id,
    ]);
  const startSender = (box: SecretBox) => {
    const validated = validateEnvironment({ ...env, DATABASE_URL: workerDatabaseUrl() });
    const pool = createBackgroundPool('alert secrets spec', validated);
    pools.push(pool);
    const sender = new AlertSenderService(validated, noVersions, box, pool);
    senders.push(sender);
    sender.onApplicationBootstrap();
  };
  /** The first request the receiver got, verified with `secret` as a subscriber verifies it. */
  const verifiedWith = async (secret: string) => {
    const { headers, body } = await until('a delivery', () => receiver.received[0]);
    return new Webhook(secret).verify(body, headers as Record<string, string>);
  };

  it('stores the secret sealed: the row holds neither it nor its key, and deliveries are signed with it', async () => {
    const alert = await create(new SecretBox(k1));
    const row = await stored(alert.id);
    expect(row).toMatch(/^v1\.k1\./);
    expect(row).not.toContain(alert.secret.slice('whsec_'.length));
    await fire(alert.id);
    startSender(new SecretBox(k1));
    expect(await verifiedWith(alert.secret)).toEqual({ a: 1 });
  });

  it('seals a plain secret from before sealing when api-v1 starts, and signs with it meanwhile', async () => {
    const alert = await create(new SecretBox(k1));
    await ds.query('UPDATE alerts SET secret = $2 WHERE id = $1', [alert.id, alert.secret]);
    await fire(alert.id);
    startSender(new SecretBox(k1));
    expect(await verifiedWith(alert.secret)).toEqual({ a: 1 });
    expect(await resealed(alert.id, 'k1')).toMatch(/^v1\.k1\./);
  });

  it('rotates: an old key opens its secrets while the pass reseals them with the new one', async () => {
    const alert = await create(new SecretBox(k1));
    await fire(alert.id);
    startSender(new SecretBox(k2, [k1]));
    expect(await verifiedWith(alert.secret)).toEqual({ a: 1 });
    expect(await resealed(alert.id, 'k2')).toMatch(/^v1\.k2\./);
    // Once resealed, the old key is no longer needed.
    expect(new SecretBox(k2).open(await stored(alert.id))).toBe(alert.secret);
  });
});
