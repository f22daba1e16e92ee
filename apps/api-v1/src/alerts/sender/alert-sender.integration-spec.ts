import type { DataVersionSource, NewAlert, PlanName } from '@tcg/domain';
import { TypeOrmAlertRepository, TypeOrmApiKeyRepository, writeCatalogue } from '@tcg/persistence';
import { createBackgroundPool } from '@tcg/persistence/nest';
import {
  startWebhookReceiver,
  testAlert,
  tinyCatalogue,
  useTestDatabase,
  workerDatabaseUrl,
} from '@tcg/persistence/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '../../config/environment';
import { AlertSenderService } from './alert-sender.service';
import { SecretBox } from '../secrets/secret-box';

/**
 * A receiver on 127.0.0.1: `fast` answers 204 at once; `tarpit` reads the request and never
 * answers; `mixed` never answers on `/slow` and answers at once elsewhere (one host, two tenants).
 */
async function startReceiver(kind: 'fast' | 'tarpit' | 'mixed') {
  const received: { at: number; id: string; path: string }[] = [];
  const { port, close } = await startWebhookReceiver(
    (req) => received.push({ at: Date.now(), id: String(req.headers['webhook-id']), path: String(req.url) }),
    (req) => kind === 'tarpit' || (kind === 'mixed' && req.url === '/slow'),
  );
  return { url: `http://127.0.0.1:${port}/hook`, slowUrl: `http://127.0.0.1:${port}/slow`, received, close };
}

async function until<T>(what: string, check: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const noVersions: DataVersionSource = { current: () => null, onChange: () => () => undefined };
const box = new SecretBox({ id: 'test', key: randomBytes(32) });

describe('alert sender (PostgreSQL, receivers on 127.0.0.1)', () => {
  let ds: DataSource;
  useTestDatabase((opened) => (ds = opened));
  const cat = tinyCatalogue();
  const card = cat.cards[0]!;
  const variant = cat.variants[0]!;
  const services: AlertSenderService[] = [];
  const pools: Pool[] = [];
  const receivers: { close(): Promise<void> }[] = [];

  beforeEach(async () => {
    await writeCatalogue(ds, cat);
  });

  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await Promise.all(services.splice(0).map((s) => s.onApplicationShutdown()));
    await Promise.all(pools.splice(0).map((p) => p.end()));
  });

  const key = async (plan: PlanName = 'enterprise') =>
    (await new TypeOrmApiKeyRepository(ds).create(plan, 'sender test')).record.id;

  const newAlert = (keyId: string, url: string): NewAlert =>
    testAlert({
      keyId,
      cardUuid: card.uuid,
      variantUuid: variant.uuid,
      threshold: 1,
      url,
      secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
    });

  /** `n` alerts of the key on `url`, each with one event due now, `dueAgoMs` in the past. */
  const fire = async (keyId: string, url: string, n: number, dueAgoMs: number) => {
    const repo = new TypeOrmAlertRepository(ds);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await repo.create(newAlert(keyId, url), 10_000))!.id);
    await ds.query(
      `INSERT INTO alert_events (id, alert_id, payload, due_at)
       SELECT gen_random_uuid(), a, '{}', now() - $2 * interval '1 millisecond' FROM unnest($1::uuid[]) a`,
      [ids, dueAgoMs],
    );
    return ids;
  };

  const start = (env: Record<string, string> = {}) => {
    const validated = validateEnvironment({
      DATABASE_URL: workerDatabaseUrl(),
      INTERNAL_TOKEN: randomUUID() + randomUUID(),
      ALERT_PRIVATE_URLS: 'allow',
      ALERT_POLL_MS: '50',
      ...env,
    });
    const pool = createBackgroundPool('alert sender spec', validated);
    pools.push(pool);
    const service = new AlertSenderService(validated, noVersions, box, pool);
    services.push(service);
    service.onApplicationBootstrap();
    return service;
  };

  it("delivers one key's event within 2 s while another key's 64 wait on a receiver that never answers", async () => {
    const tarpit = await startReceiver('tarpit');
    const fast = await startReceiver('fast');
    receivers.push(tarpit, fast);
    const [a, b] = [await key(), await key()];
    // A's events are older: oldest-due first, they are all ahead of B's.
    await fire(a, tarpit.url, 64, 1000);
    await fire(b, fast.url, 1, 0);
    const started = Date.now();
    start();
    const delivered = await until('B delivered', () => fast.received[0], 2000);
    expect(delivered.at - started).toBeLessThan(2000);
  });

  it('stops sending to a destination after 3 timeouts in a row, and puts its other events off', async () => {
    const tarpit = await startReceiver('tarpit');
    receivers.push(tarpit);
    const a = await key();
    await fire(a, tarpit.url, 64, 0);
    // A 1.5 s lease: each attempt gives up after 0.75 s without an answer.
    start({ ALERT_LEASE_MS: '1500' });
    await new Promise((r) => setTimeout(r, 4000));
    // 4 at once (one key's share), each slot refilled once before the third timeout opened the breaker.
    expect(tarpit.received.length).toBeGreaterThanOrEqual(3);
    expect(tarpit.received.length).toBeLessThanOrEqual(8);
    const [{ later }] = (await ds.query(
      `SELECT count(*)::int AS later FROM alert_events WHERE due_at > now() + interval '50 seconds'`,
    )) as { later: number }[];
    expect(later).toBeGreaterThanOrEqual(64 - tarpit.received.length);
  });

  it("keeps a key's breaker to itself: another key's silent path on the same host does not hold its events", async () => {
    const host = await startReceiver('mixed');
    receivers.push(host);
    const [a, b] = [await key(), await key()];
    // A points 64 alerts at a path of B's host that never answers, to trip that host's breaker.
    await fire(a, host.slowUrl, 64, 0);
    start({ ALERT_LEASE_MS: '1500' });
    await new Promise((r) => setTimeout(r, 3000));
    const [{ putOff }] = (await ds.query(
      `SELECT count(*)::int AS "putOff" FROM alert_events WHERE due_at > now() + interval '50 seconds'`,
    )) as { putOff: number }[];
    expect(putOff).toBeGreaterThan(50); // A's own events wait
    const fired = Date.now();
    await fire(b, host.url, 1, 0);
    const delivered = await until('B delivered', () => host.received.find((r) => r.path === '/hook'), 2000);
    expect(delivered.at - fired).toBeLessThan(2000);
  });

  it('records one outcome for every way of not getting an answer, so the deliveries map no ports or hosts', async () => {
    const tarpit = await startReceiver('tarpit');
    receivers.push(tarpit);
    const closed = await startReceiver('fast');
    await closed.close(); // nothing listens on its port any more
    const a = await key();
    const [silent] = await fire(a, tarpit.url, 1, 0);
    const [refused] = await fire(a, closed.url, 1, 0);
    start({ ALERT_LEASE_MS: '1500' });
    const repo = new TypeOrmAlertRepository(ds);
    const errors = async () =>
      Object.fromEntries(
        await Promise.all(
          [silent!, refused!].map(
            async (id) => [id, (await repo.attempts(a, id, 50))![0]?.error ?? 'none'] as const,
          ),
        ),
      );
    for (let i = 0; i < 100 && Object.values(await errors()).includes('none'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await errors()).toEqual({ [silent!]: 'no_response', [refused!]: 'no_response' });
  });

  it('records a destination refused at send time as one outcome, whether it resolves to a private address or not at all', async () => {
    const a = await key();
    const [literal] = await fire(a, 'https://10.0.0.1:8443/hook', 1, 0);
    const [unknown] = await fire(a, 'https://nonexistent.invalid/hook', 1, 0);
    start({ ALERT_PRIVATE_URLS: 'refuse', ALERT_LEASE_MS: '3000' });
    const repo = new TypeOrmAlertRepository(ds);
    const errors = async () =>
      Promise.all(
        [literal!, unknown!].map(async (id) => (await repo.attempts(a, id, 50))![0]?.error ?? 'none'),
      );
    for (let i = 0; i < 100 && (await errors()).includes('none'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await errors()).toEqual(['destination_refused', 'destination_refused']);
  });

  it("sends only what a downgraded key's plan still allows, and says why the rest is disabled", async () => {
    const fast = await startReceiver('fast');
    receivers.push(fast);
    const k = await key('enterprise');
    const made = await fire(k, fast.url, 7, 0);
    await new TypeOrmApiKeyRepository(ds).changePlan(k, 'free'); // 5 alerts
    start();
    await until('5 deliveries', () => fast.received.length >= 5, 5000);
    await new Promise((r) => setTimeout(r, 500));
    expect(fast.received).toHaveLength(5);
    const listed = await new TypeOrmAlertRepository(ds).list(k);
    expect(listed.map((a) => [a.id, a.disabledReason])).toEqual(
      made.map((id, i) => [id, i < 5 ? null : 'over the free plan’s 5 alerts']),
    );
  });

  it("sends nothing for a key revoked behind the CLI's back", async () => {
    const fast = await startReceiver('fast');
    receivers.push(fast);
    const k = await key();
    await fire(k, fast.url, 3, 0);
    await ds.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [k]);
    start();
    await new Promise((r) => setTimeout(r, 1000));
    expect(fast.received).toHaveLength(0);
  });
});
