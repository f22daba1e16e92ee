import { withTestDatabase } from '@tcg/persistence/testing';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { dragon, nm, seedCatalogue, series, T_NOW } from './fixtures';
import { fetchWithKey } from './http';
import { importPrices } from './import-prices';
import { newKey } from './keys';
import { startStack, startWorker, type Stack, type WorkerProcess } from './stack';

/**
 * The batch work off the serving path: the serving api-v1 runs with BULK_GENERATION and
 * ALERT_SENDER off (as npm start, compose and k8s run it), and the worker
 * (`dist/apps/api-v1/src/worker.js`) writes the bulk files and sends the webhooks that a user then
 * sees through the gateway. The two tests run in order: the first leaves the worker stopped.
 */

/** Quick settles and polls, private receivers allowed, the job lines logged. */
const JOBS = {
  BULK_SETTLE_MS: '300',
  ALERT_PRIVATE_URLS: 'allow',
  ALERT_POLL_MS: '50',
  LOG_LEVEL: 'log',
};

/** The settle of a version (300 ms) and an evaluation's (500 ms) several times over. */
const QUIET_MS = 3_000;

interface Listed {
  readonly game: string;
  readonly format: string;
  readonly bytes: number;
  readonly download_url: string;
}

/** A webhook receiver on 127.0.0.1 that records the bodies reaching it and answers 204. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    bodies,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
): Promise<T> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('api-v1 worker: bulk files and webhooks off the serving api-v1', () => {
  let stack: Stack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: WorkerProcess | undefined;
  let key: string;
  let alertId: string;

  const get = (path: string) => fetchWithKey(`${stack.gatewayUrl}${path}`, key);
  const listed = async () => ((await (await get('/v1/bulk')).json()) as { data: Listed[] }).data;
  const snapshotRows = () =>
    withTestDatabase(async (ds) =>
      Number((await ds.query('SELECT count(*)::int AS n FROM bulk_snapshots'))[0].n),
    );

  beforeAll(async () => {
    await seedCatalogue([dragon], [nm], [{ variantUuid: nm.uuid, ...series(1000) }]);
    receiver = await startReceiver();
    // The serving api-v1 as every deployment now runs it: no batch work (the stack's default),
    // told to settle quickly and to log its jobs' lines, so that any it ran would show.
    stack = await startStack({
      v1Env: { ...JOBS, BULK_GENERATION: 'off', ALERT_SENDER: 'off' },
      logs: true,
    });
    key = await newKey('starter');
  });

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await stack?.close();
    await receiver?.close();
  });

  it('with the worker stopped, the serving api-v1 writes no bulk file and sends no webhook', async () => {
    const created = await fetch(`${stack.gatewayUrl}/v1/alerts`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ variant_id: nm.id, rule: 'price_above', value: 50, url: receiver.url }),
    });
    expect(created.status).toBe(201);
    alertId = ((await created.json()) as { data: { id: string } }).data.id;
    // A price that crosses the threshold: a new data version, which a sender would evaluate.
    expect(
      await importPrices([
        { variant_id: nm.uuid, region: 'NA', time: T_NOW + 3600, price: '55.00', currency: 'USD' },
      ]),
    ).toBe(0);
    await new Promise((r) => setTimeout(r, QUIET_MS));

    expect(await snapshotRows()).toBe(0);
    expect(await listed()).toEqual([]);
    expect(receiver.bodies).toEqual([]);
    expect(stack.output('v1')).not.toContain('"msg":"bulk snapshot written"');
  });

  it('the worker writes the bulk files the v1 bulk endpoint then serves, and sends the webhook', async () => {
    worker = await startWorker({ ...JOBS, BULK_GENERATION: 'on', ALERT_SENDER: 'on' });

    // What was missed while no worker ran: the import's version is evaluated at its start.
    const [body] = await until('the webhook', () => receiver.bodies.length > 0 && receiver.bodies);
    const event = JSON.parse(body!) as { type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({
      type: 'price_alert.triggered',
      data: { alert_id: alertId, variant_id: nm.id, rule: 'price_above', value: 50 },
    });

    const files = await until('the bulk files', async () => {
      const data = await listed();
      return data.length === 2 && data;
    });
    expect(files.map((f) => [f.game, f.format])).toEqual([
      ['test-game', 'csv.gz'],
      ['test-game', 'ndjson.gz'],
    ]);
    const ndjson = files.find((f) => f.format === 'ndjson.gz')!;
    const download = await get(ndjson.download_url);
    expect(download.status).toBe(200);
    const file = Buffer.from(await download.arrayBuffer());
    expect(file.length).toBe(ndjson.bytes);
    const rows = gunzipSync(file).toString('utf8').trimEnd().split('\n');
    expect(rows.map((l) => (JSON.parse(l) as { variant_id: string }).variant_id)).toContain(nm.id);

    // Written by the worker, logged as its own service; the serving api-v1 wrote none.
    const written = worker
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"bulk snapshot written"'))
      .map((l) => JSON.parse(l) as { service: string });
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((l) => l.service === 'api-v1-worker')).toBe(true);
    expect(stack.output('v1')).not.toContain('"msg":"bulk snapshot written"');

    // Its admin port, for the orchestrator's probes and Prometheus.
    const health = await fetch(worker.healthUrl);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', service: 'api-v1-worker', database: 'up' });
    expect((await fetch(worker.metricsUrl)).status).toBe(200);

    // SIGTERM: its jobs stop, then Nest's shutdown hooks raise the signal again, as the services' do.
    expect(await worker.stop()).toBe('SIGTERM');
    worker = undefined;
  });
});
