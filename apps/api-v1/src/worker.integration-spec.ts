import type { TestingModule } from '@nestjs/testing';
import { type BulkSnapshotStore, HISTORY_FORMAT } from '@tcg/domain';
import {
  type ApiKeyRepository,
  PriceIngestRepository,
  refreshSummaries,
  writeCatalogue,
} from '@tcg/persistence';
import { API_KEYS } from '@tcg/persistence';
import {
  BULK_NOW,
  inProcessApp,
  nmPriceSteps,
  observed,
  tinyCatalogue,
  useTestDatabase,
} from '@tcg/persistence/testing';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { AlertsService } from './alerts/alerts.service';
import { BULK_SNAPSHOTS } from './bulk/bulk-store.provider';
import { toUsageMetadata } from './common/decorators/usage.decorator';
import { Environment, validateEnvironment } from './config/environment';
import { validateWorkerEnvironment, WorkerEnvironment } from './config/worker-environment';
import { AppModule } from './app.module';
import { WorkerModule } from './worker.module';

const T_NOW = BULK_NOW;
/** One key for api-v1 and its worker: secrets the one seals, the other opens. */
const ALERT_SECRET_KEY = `medium:${Buffer.alloc(32, 9).toString('base64')}`;

/** A starter key's usage, this request counted, as the gateway reports it. */
const once = (limit: number) => ({ limit, used: 1, resetSeconds: 60 });
const usage = toUsageMetadata({ plan: 'starter', minute: once(60), day: once(2000), month: once(30_000) });

/** Until `check` gives something, every 50 ms, for 10 s at most. */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * api-v1's worker (WorkerModule: what `worker.ts` runs) built in process on this worker's test
 * database and started, its jobs on their real repositories. The end-to-end suite keeps what needs
 * processes (the serving api-v1 doing none of this, the worker's admin port, signals).
 */
describe('api-v1 worker (in process, PostgreSQL)', () => {
  let ds: DataSource;
  const apps: TestingModule[] = [];
  const cat = tinyCatalogue();
  const [card, nm, slab] = [cat.cards[0]!, cat.variants[0]!, cat.variants[1]!];
  const nmSteps = nmPriceSteps(card, nm);

  /** The worker with `variables` (its jobs off unless they turn them on), started. */
  const startWorker = async (variables: Record<string, string>) => {
    const worker = await inProcessApp(
      WorkerModule,
      { type: WorkerEnvironment, validate: validateWorkerEnvironment },
      { BULK_GENERATION: 'off', ALERT_SENDER: 'off', ALERT_SECRET_KEY, ...variables },
    );
    apps.push(worker);
    await worker.init();
    return worker;
  };

  /** The serving api-v1, its own jobs off (as deployments run it beside the worker). */
  const startApi = async () => {
    const api = await inProcessApp(
      AppModule,
      { type: Environment, validate: validateEnvironment },
      { BULK_GENERATION: 'off', ALERT_SENDER: 'off', ALERT_PRIVATE_URLS: 'allow', ALERT_SECRET_KEY },
    );
    apps.push(api);
    return api;
  };

  useTestDatabase((opened) => (ds = opened));
  beforeEach(async () => {
    await writeCatalogue(ds, cat);
    // The Near Mint in NA: 9.00 eight days back, 11.00 yesterday, 12.00 now; the slab has no price.
    await new PriceIngestRepository(ds).ingest(nmSteps.prices);
    await refreshSummaries(ds);
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  describe('the alert sender', () => {
    /** Quick polls, and the receiver below on 127.0.0.1 allowed (private destinations are refused by default). */
    const SENDER = { ALERT_SENDER: 'on', ALERT_PRIVATE_URLS: 'allow', ALERT_POLL_MS: '50' };
    /** A receiver that keeps what reaches it and answers what `answer` says for each body. */
    let receiver: Server;
    let url: string;
    let answer: (body: string) => number;
    const received: { headers: IncomingHttpHeaders; body: string; at: number }[] = [];
    beforeAll(async () => {
      receiver = createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks).toString();
        received.push({ headers: req.headers, body, at: Date.now() });
        res.writeHead(answer(body)).end();
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    });
    beforeEach(() => {
      received.splice(0);
      answer = () => 204;
    });
    afterAll(async () => {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    });

    /**
     * Alerts above `value` dollars on the Near Mint as a user creates them: through api-v1's own
     * service (which seals their secrets), for one key, read back the same way.
     */
    const userAlerts = async () => {
      const api = await startApi();
      const { record } = await api.get<ApiKeyRepository>(API_KEYS).create('starter', 'medium test');
      const alerts = api.get(AlertsService);
      return {
        above: (value: number) =>
          alerts.create({ variant_id: nm.id, rule: 'price_above', value, url }, record.id, usage),
        get: (id: string) => alerts.get(record.id, id),
        deliveries: (id: string) => alerts.deliveries(record.id, id),
      };
    };
    /** An import of the Near Mint's price, an hour after the last. */
    let hour = 0;
    const importPrice = async (cents: number) => {
      await new PriceIngestRepository(ds).ingest([observed(nm, T_NOW + ++hour * 3600, cents)]);
      await refreshSummaries(ds);
    };

    it('sends one signed event when a price crosses an alert’s threshold, and records the attempt', async () => {
      const user = await userAlerts();
      const alert = await user.above(50);
      await startWorker(SENDER);
      // The import's data version reaches the running worker by NOTIFY.
      await importPrice(5500);
      const [sent] = await until('the webhook', () => (received.length > 0 ? received : undefined));
      expect(JSON.parse(sent!.body)).toMatchObject({
        type: 'price_alert.triggered',
        data: { alert_id: alert.id, card_id: card.id, variant_id: nm.id, rule: 'price_above', value: 50 },
      });
      // The price that crossed it, in the alert's market and currency.
      expect(JSON.parse(sent!.body)).toMatchObject({ data: { price: 55, region: 'US', currency: 'USD' } });
      // Signed with the secret the user was shown, as an independent implementation checks it.
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(sent!.headers[h])]),
      );
      expect(() => new Webhook(alert.secret).verify(sent!.body, headers)).not.toThrow();

      const recorded = await until('the attempt recorded', async () => {
        const listed = await user.deliveries(alert.id);
        return listed.length > 0 ? listed : undefined;
      });
      expect(recorded).toEqual([
        {
          event_id: headers['webhook-id'],
          attempt: 1,
          at: expect.any(String),
          status: 204,
          duration_ms: expect.any(Number),
          error: null,
        },
      ]);
      expect(await user.get(alert.id)).toMatchObject({ holds: true, last_fired_at: expect.any(String) });
      expect(received).toHaveLength(1);
    });

    it('retries a failing receiver with growing gaps until it answers, one event under one id', async () => {
      answer = () => (received.length <= 3 ? 503 : 204);
      const user = await userAlerts();
      const alert = await user.above(50);
      // Crossed before the worker starts: it evaluates what changed while none ran.
      await importPrice(5500);
      await startWorker({ ...SENDER, ALERT_RETRY_BASE_MS: '100' });
      await until('the fourth attempt', () => (received.length >= 4 ? received : undefined));
      // Base 0.1 s, doubled each time, half of each gap random: 50–100 ms, 100–200 ms, 200–400 ms.
      const gaps = received.slice(1).map((r, i) => r.at - received[i]!.at);
      expect(gaps[0]).toBeGreaterThanOrEqual(45);
      expect(gaps[2]).toBeGreaterThanOrEqual(195);
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const listed = await until('four attempts listed', async () => {
        const attempts = await user.deliveries(alert.id);
        return attempts.length === 4 ? attempts : undefined;
      });
      expect(listed.map((d) => [d.attempt, d.status])).toEqual([
        [4, 204],
        [3, 503],
        [2, 503],
        [1, 503],
      ]);
      expect((await user.get(alert.id)).status).toBe('active');
    });

    it('disables an alert whose deliveries fail past the window, and sends it nothing more', async () => {
      const user = await userAlerts();
      const doomed = await user.above(50);
      // Another alert on the same receiver, which it accepts: it shows when an evaluation has run.
      const control = await user.above(55.5);
      answer = (body) => (body.includes(control.id) ? 204 : 503);
      await importPrice(5500);
      await startWorker({ ...SENDER, ALERT_RETRY_BASE_MS: '100', ALERT_RETRY_WINDOW_MS: '1000' });
      const disabled = await until('the alert disabled', async () => {
        const alert = await user.get(doomed.id);
        return alert.status === 'disabled' ? alert : undefined;
      });
      expect(disabled).toMatchObject({ disabled_reason: 'deliveries failed for 1 s' });
      const attempts = received.length;
      expect(attempts).toBeGreaterThan(1);
      // Cleared, then crossed again: the control alert fires, the disabled one does not.
      await importPrice(1000);
      await importPrice(5600);
      await until('the control event', () => received.find((r) => r.body.includes(control.id)));
      await new Promise((r) => setTimeout(r, 200));
      expect(received.slice(attempts).map((r) => JSON.parse(r.body).data.alert_id)).toEqual([control.id]);
    });
  });

  describe('the bulk generation', () => {
    it("writes the test game's snapshots, the day's archive of them and its history file, as the store lists them", async () => {
      await startWorker({ BULK_GENERATION: 'on', BULK_SETTLE_MS: '0' });
      // The store api-v1 lists and serves the files from.
      const store = (await startApi()).get<BulkSnapshotStore>(BULK_SNAPSHOTS);
      // The history comes after the snapshots, in the same run.
      const [history] = await until('the history file', async () => {
        const listed = await store.listLatest([HISTORY_FORMAT]);
        return listed.length > 0 ? listed : undefined;
      });
      const [{ version }] = (await ds.query('SELECT version::int AS version FROM data_version')) as {
        version: number;
      }[];
      const latest = await store.listLatest();
      expect(latest.map((s) => [s.gameId, s.format, s.rows, s.dataVersion])).toEqual([
        ['test-game', 'csv.gz', 2, version],
        ['test-game', 'ndjson.gz', 2, version],
      ]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await store.listArchives()).map((s) => [s.archiveDate, s.gameId, s.format])).toEqual([
        [today, 'test-game', 'csv.gz'],
        [today, 'test-game', 'ndjson.gz'],
      ]);

      /** A stored file's lines, its parts joined and unzipped. */
      const lines = async (id: number, chunks: number) => {
        const parts: Uint8Array[] = [];
        for (let seq = 0; seq < chunks; seq++) parts.push((await store.readChunk(id, seq))!);
        return gunzipSync(Buffer.concat(parts))
          .toString('utf8')
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      };
      const ndjson = latest.find((s) => s.format === 'ndjson.gz')!;
      expect((await lines(ndjson.id, ndjson.chunks)).map((r) => [r['variant_id'], r['price']])).toEqual([
        [nm.id, 12],
        [slab.id, null],
      ]);
      expect(history).toMatchObject({ gameId: 'test-game', rows: 1, dataVersion: version });
      expect(await lines(history!.id, history!.chunks)).toEqual([nmSteps.historyLine]);
    });
  });
});
