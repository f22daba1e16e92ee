import { createDataSource, PriceIngestRepository, type ReadRouting } from '@tcg/persistence';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DAY, dragon, nm, seedOwnDatabase, T_NOW } from './fixtures';
import { postgresBinDir, ReplicatedPostgres, startReplicatedPostgres } from './replicated-postgres';
import { startStack, Stack } from './stack';

const binDir = postgresBinDir();
if (!binDir)
  process.stdout.write(
    '[test] read replicas: skipped, PostgreSQL binaries (initdb, pg_basebackup, postgres) not found\n',
  );
const describeWithBinaries = binDir ? describe : describe.skip;

const DB = 'tcg_replicas';

/** A read of a service's routing, from its health details (admin port). */
async function routing(healthUrl: string): Promise<{ dataVersion: number | null; reads: ReadRouting }> {
  const res = await fetch(healthUrl);
  expect(res.status).toBe(200);
  return (await res.json()) as { dataVersion: number | null; reads: ReadRouting };
}

/** The value of a series of a service's `/metrics` text with these labels (among others), if any. */
async function metric(
  metricsUrl: string,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function one<T>(url: string, sql: string): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0] as T;
  } finally {
    await client.end();
  }
}

describeWithBinaries('read replicas: reads on an up-to-date replica, never older data than served', () => {
  let pg: ReplicatedPostgres;
  let stack: Stack;
  let primary: DataSource;
  let key: string;

  const versionOn = async (url: string) =>
    Number((await one<{ v: string }>(url, 'SELECT version::text AS v FROM data_version')).v);
  /** Transactions the replica's server has committed in the test database: its reads. */
  const replicaTransactions = async () =>
    Number(
      (
        await one<{ n: string }>(
          pg.replicaUrl('postgres'),
          `SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = '${DB}'`,
        )
      ).n,
    );
  /** The dragon's NA Near Mint price, through the gateway, in both versions. */
  const prices = async (): Promise<number[]> => {
    const headers = { 'x-api-key': key };
    const v1 = await fetch(`${stack.gatewayUrl}/v1/cards?cardId=${dragon.id}`, { headers });
    const v2 = await fetch(`${stack.gatewayUrl}/v2/cards/${dragon.uuid}`, { headers });
    expect([v1.status, v2.status]).toEqual([200, 200]);
    const v1Body = (await v1.json()) as { data: { variants: { uuid: string; price: number }[] }[] };
    const v2Body = (await v2.json()) as {
      data: { variants: { id: string; markets: { price: number }[] }[] };
    };
    return [
      v1Body.data[0]!.variants.find((v) => v.uuid === nm.uuid)!.price,
      v2Body.data.variants.find((v) => v.id === nm.uuid)!.markets[0]!.price,
    ];
  };

  beforeAll(async () => {
    pg = await startReplicatedPostgres(binDir!);
    await one(pg.primaryUrl('postgres'), `CREATE DATABASE ${DB}`);
    primary = await createDataSource({
      url: pg.primaryUrl(DB),
      poolSize: 2,
      applicationName: 'replica-setup',
    }).initialize();
    key = await seedOwnDatabase(primary, 'replicas');
    const version = await versionOn(pg.primaryUrl(DB));
    await until(
      'replica replays the load',
      () => versionOn(pg.replicaUrl(DB)).catch(() => -1),
      (v) => v === version,
    );
    stack = await startStack({
      databaseUrl: pg.primaryUrl(DB),
      // Every request reads the database, so where each read went is visible.
      env: { DATABASE_READ_URLS: pg.replicaUrl(DB), RESPONSE_CACHE_MAX_BYTES: '0' },
      metrics: true,
    });
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
    await primary?.destroy();
    await pg?.stop();
  }, 30_000);

  it('sends the reads of both services to the replica once it has replayed the current version', async () => {
    for (const url of [stack.healthUrls.v1, stack.healthUrls.v2])
      await until(
        'replica eligible',
        () => routing(url),
        (h) => h.reads.replicas[0]!.eligible,
      );
    const before = await Promise.all([routing(stack.healthUrls.v1), routing(stack.healthUrls.v2)]);
    const transactions = await replicaTransactions();
    for (let i = 0; i < 10; i++) expect(await prices()).toEqual([10.4, 10.4]);
    const after = await Promise.all([routing(stack.healthUrls.v1), routing(stack.healthUrls.v2)]);
    for (const [i, h] of after.entries()) {
      expect(h.reads.primaryReads).toBe(before[i]!.reads.primaryReads);
      expect(h.reads.replicas[0]!.reads - before[i]!.reads.replicas[0]!.reads).toBeGreaterThanOrEqual(10);
    }
    const target = `${new URL(pg.replicaUrl(DB)).host}/${DB}`;
    expect(await metric(stack.metricsUrls.v2, 'tcg_db_reads_total', { target })).toBe(
      after[1]!.reads.replicas[0]!.reads,
    );
    // The replica's own server counted them (its statistics are flushed within a second or so).
    await until('the replica server counts the reads', replicaTransactions, (n) => n >= transactions + 20);
  });

  it('answers from the primary while the replica lags, never with the older data, then from the replica again', async () => {
    const replica = pg.replicaUrl(DB);
    await one(replica, 'SELECT pg_wal_replay_pause()');
    await until(
      'replay paused',
      () => one<{ s: string }>(replica, 'SELECT pg_get_wal_replay_pause_state() AS s'),
      (r) => r.s === 'paused',
    );
    const old = await versionOn(replica);

    await new PriceIngestRepository(primary).ingest([
      { variantUuid: nm.uuid, region: 'NA', t: T_NOW + DAY, price: 1500 },
    ]);
    const fresh = await versionOn(pg.primaryUrl(DB));
    expect(fresh).toBeGreaterThan(old);
    for (const url of [stack.healthUrls.v1, stack.healthUrls.v2])
      await until(
        'the service learns the new version',
        () => routing(url),
        (h) => h.dataVersion === fresh,
      );
    const lag = await one<{ versions: string; bytes: string }>(
      replica,
      `SELECT (${fresh} - (SELECT version FROM data_version))::text AS versions,
              (pg_last_wal_receive_lsn() - pg_last_wal_replay_lsn())::text AS bytes`,
    );
    process.stdout.write(
      `[test] read replicas: replica ${lag.versions} version(s), ${lag.bytes} WAL bytes behind\n`,
    );
    expect(Number(lag.versions)).toBeGreaterThan(0);

    const before = await Promise.all([routing(stack.healthUrls.v1), routing(stack.healthUrls.v2)]);
    for (const h of before)
      expect(h.reads.replicas[0]).toMatchObject({ up: true, replayedVersion: old, eligible: false });
    const behind = await metric(stack.metricsUrls.v1, 'tcg_db_replica_behind_versions', {
      replica: `${new URL(replica).host}/${DB}`,
    });
    expect(behind).toBe(Number(lag.versions));
    for (let i = 0; i < 10; i++) expect(await prices()).toEqual([15, 15]);
    const during = await Promise.all([routing(stack.healthUrls.v1), routing(stack.healthUrls.v2)]);
    for (const [i, h] of during.entries()) {
      expect(h.reads.replicas[0]!.reads).toBe(before[i]!.reads.replicas[0]!.reads);
      expect(h.reads.primaryReads - before[i]!.reads.primaryReads).toBeGreaterThanOrEqual(10);
    }

    await one(replica, 'SELECT pg_wal_replay_resume()');
    for (const url of [stack.healthUrls.v1, stack.healthUrls.v2])
      await until(
        'the replica catches up',
        () => routing(url),
        (h) => h.reads.replicas[0]!.eligible,
      );
    const caughtUp = await routing(stack.healthUrls.v1);
    for (let i = 0; i < 10; i++) expect(await prices()).toEqual([15, 15]);
    expect(
      (await routing(stack.healthUrls.v1)).reads.replicas[0]!.reads - caughtUp.reads.replicas[0]!.reads,
    ).toBeGreaterThanOrEqual(10);
  });

  it('keeps answering from the primary when the replica is lost', async () => {
    pg.killReplica();
    for (let i = 0; i < 10; i++) expect(await prices()).toEqual([15, 15]);
    for (const url of [stack.healthUrls.v1, stack.healthUrls.v2]) {
      const h = await until(
        'the replica is marked down',
        () => routing(url),
        (r) => !r.reads.replicas[0]!.up,
      );
      expect(h.reads.replicas[0]!.eligible).toBe(false);
    }
  });
});
