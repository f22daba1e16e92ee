import type { DataVersionSource } from '@tcg/domain';
import { TypeOrmApiKeyRepository, writeCatalogue } from '@tcg/persistence';
import { createBackgroundPool, type DatabaseSettings } from '@tcg/persistence/nest';
import { startWebhookReceiver, tinyCatalogue } from '@tcg/persistence/testing';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { openDatabase, resolveDatabase } from '../common/database';
import { REPO_ROOT } from '../common/files';
import { log, parseArgs } from '../common/log';
import { databaseUrl } from './bench-databases';

/**
 * Webhook fairness (issue 37, item 2): how long one key's event waits behind another key's backlog
 * on a receiver that never answers, and how many deliveries a sender makes per second.
 *
 * `npm run build && node dist/tools/bench/alert-fairness.bench.js [--backlog 5000] [--events 2000]
 *   [--keys 20] [--db tcg_bench_alerts]`
 *
 * On a database of its own (created, or emptied, on the server of DATABASE_URL or the embedded
 * one) with a one-card catalogue, one api-v1 sender (the built AlertSenderService, in this
 * process, at its production deadlines: a 60 s lease, so 5 s to connect and 10 s to answer) sends
 * to receivers on 127.0.0.1:
 * - `tarpit`: key A's `--backlog` events, all due 1 s before key B's one event on a `fast`
 *   receiver (204 at once): B's latency from the sender's start; then a second B event fired 5 s
 *   later, while A's attempts are in flight, and a third at 20 s, once A's breaker is open; the
 *   requests the tarpit received in 30 s.
 * - `throughput`: `--events` events spread over `--keys` keys, and the same number on one key,
 *   each key on a fast receiver of its own: deliveries per second until the last is recorded.
 * Before issue 37 (16 oldest-due events per round, each round as long as its slowest attempt),
 * B's event waited ceil(backlog / 16) rounds of 10 s: 313 rounds, 52 min, for 5,000.
 */

interface Receiver {
  readonly url: string;
  received: number;
  readonly at: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(kind: 'fast' | 'tarpit'): Promise<Receiver> {
  const receiver = { received: 0, at: new Map<string, number>() } as Receiver;
  const { port, close } = await startWebhookReceiver(
    (req) => {
      receiver.received += 1;
      receiver.at.set(String(req.headers['webhook-id']), performance.now());
    },
    () => kind === 'tarpit',
  );
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/hook`, close });
}

/** The built sender and its configuration (tools never import app code: dist/, as query-schema.bench does). */
interface Sender {
  onApplicationBootstrap(): void;
  onApplicationShutdown(): Promise<void>;
}

/** A sender on a background pool of its own, as PersistenceModule gives api-v1's; `stop` ends both. */
interface RunningSender {
  start(): void;
  stop(): Promise<void>;
}
function newSender(url: string): RunningSender {
  const load = <T>(path: string): T => require(join(REPO_ROOT, 'dist/apps/api-v1/src', path)) as T;
  const { validateEnvironment } = load<{ validateEnvironment(raw: Record<string, string>): unknown }>(
    'config/environment.js',
  );
  const { AlertSenderService } = load<{
    AlertSenderService: new (
      env: unknown,
      versions: DataVersionSource,
      box: unknown,
      pool: unknown,
    ) => Sender;
  }>('alerts/sender/alert-sender.service.js');
  const { SecretBox } = load<{ SecretBox: new (key: { id: string; key: Buffer }) => unknown }>(
    'alerts/secrets/secret-box.js',
  );
  const env = validateEnvironment({
    DATABASE_URL: url,
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    ALERT_PRIVATE_URLS: 'allow',
    LOG_LEVEL: 'warn',
  });
  const versions: DataVersionSource = { current: () => null, onChange: () => () => undefined };
  const pool = createBackgroundPool('bench alert-fairness', env as DatabaseSettings);
  const sender = new AlertSenderService(
    env,
    versions,
    new SecretBox({ id: 'bench', key: randomBytes(32) }),
    pool,
  );
  return {
    start: () => sender.onApplicationBootstrap(),
    stop: async () => {
      await sender.onApplicationShutdown();
      await pool.end();
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const backlog = Number(options.get('backlog') ?? 5000);
  const events = Number(options.get('events') ?? 2000);
  const keys = Number(options.get('keys') ?? 20);
  const database = String(options.get('db') ?? 'tcg_bench_alerts');
  const db = await resolveDatabase();
  const admin = new Client({ connectionString: databaseUrl(db.url, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = databaseUrl(db.url, database);
  const ds = await openDatabase(url);
  const cat = tinyCatalogue();
  await writeCatalogue(ds, cat);
  const variant = cat.variants[0]!;
  const keyRepo = new TypeOrmApiKeyRepository(ds);
  const newKey = async () => (await keyRepo.create('enterprise', 'bench')).record.id;

  /** `n` alerts of `keyId` on `target`, each with an event due `dueInMs` from now; their event ids. */
  const fire = async (keyId: string, target: string, n: number, dueInMs = 0): Promise<string[]> => {
    const rows = (await ds.query(
      `WITH a AS (
         INSERT INTO alerts (id, key_id, card_uuid, variant_uuid, market, region, currency, rule, threshold, url, secret)
         SELECT gen_random_uuid(), $1, $2, $3, 'US', 'NA', 'USD', 'price_above', 1, $4, 'whsec_YmVuY2hiZW5jaGJlbmNoYmVuY2g='
         FROM generate_series(1, $5) RETURNING id)
       INSERT INTO alert_events (id, alert_id, payload, due_at)
       SELECT gen_random_uuid(), a.id, '{}', now() + $6 * interval '1 millisecond' FROM a RETURNING id`,
      [keyId, variant.cardUuid, variant.uuid, target, n, dueInMs],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  };
  const results: Record<string, string | number> = {};

  // Fairness.
  const tarpit = await startReceiver('tarpit');
  const fast = await startReceiver('fast');
  const [a, b] = [await newKey(), await newKey()];
  await fire(a, tarpit.url, backlog, -1000);
  const [first] = await fire(b, fast.url, 1);
  let sender = newSender(url);
  const started = performance.now();
  sender.start();
  const latency = async (id: string, from: number) => {
    while (!fast.at.has(id)) await sleep(5);
    return Math.round(fast.at.get(id)! - from);
  };
  results['B latency, fired with A backlog (ms)'] = await latency(first!, started);
  await sleep(Math.max(0, 5000 - (performance.now() - started)));
  const at5 = performance.now();
  const [second] = await fire(b, fast.url, 1);
  results['B latency, fired at 5 s, A in flight (ms)'] = await latency(second!, at5);
  await sleep(Math.max(0, 20_000 - (performance.now() - started)));
  const at20 = performance.now();
  const [third] = await fire(b, fast.url, 1);
  results['B latency, fired at 20 s, A breaker open (ms)'] = await latency(third!, at20);
  await sleep(Math.max(0, 30_000 - (performance.now() - started)));
  results['tarpit requests in 30 s'] = tarpit.received;
  const [{ deferred }] = (await ds.query(
    `SELECT count(*)::int AS deferred FROM alert_events WHERE due_at > now() AND delivered_at IS NULL`,
  )) as { deferred: number }[];
  results['A events put off by the breaker'] = deferred;
  await tarpit.close();
  await sender.stop();
  await ds.query('DELETE FROM alert_events');

  // Throughput.
  for (const [label, keyCount] of [
    [`${keys} keys`, keys],
    ['1 key', 1],
  ] as const) {
    // A receiver per key: one destination's attempts are capped per minute (3,000 per instance).
    const targets = await Promise.all(Array.from({ length: keyCount }, () => startReceiver('fast')));
    const ids: string[] = [];
    for (const target of targets)
      ids.push(...(await fire(await newKey(), target.url, Math.ceil(events / keyCount))));
    sender = newSender(url);
    const t0 = performance.now();
    sender.start();
    for (;;) {
      const [{ left }] = (await ds.query(
        'SELECT count(*)::int AS left FROM alert_events WHERE delivered_at IS NULL',
      )) as { left: number }[];
      if (left === 0) break;
      await sleep(50);
    }
    const seconds = (performance.now() - t0) / 1000;
    results[`deliveries/s, ${ids.length} events on ${label}`] = Math.round(ids.length / seconds);
    await sender.stop();
    await Promise.all(targets.map((t) => t.close()));
    await ds.query('DELETE FROM alert_events');
  }
  await fast.close();
  await ds.destroy();
  await db.stop();

  log('info', 'alert fairness', { backlog, events, keys });
  const width = Math.max(...Object.keys(results).map((k) => k.length));
  for (const [k, v] of Object.entries(results)) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
}

main().catch((error: unknown) => {
  log('error', 'alert fairness bench failed', { error: (error as Error).message });
  process.exit(1);
});
