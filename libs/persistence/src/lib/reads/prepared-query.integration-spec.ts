import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { seriesRead, TcpProxy, useRelayedDataSource, workerDatabaseUrl } from '../../testing';
import { createDataSource, databaseUnavailable } from '../db/data-source';
import { preparedQuery, STATEMENTS_PER_CONNECTION } from './prepared-query';
import { CardQueryRepository } from './card-query.repository';
import type { CardOrder, VariantFilter } from '@tcg/domain';

/** One connection, so every statement lands on the session whose statements are counted. */
describe('preparedQuery on one connection', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await createDataSource({
      url: workerDatabaseUrl(),
      poolSize: 1,
      applicationName: 'test',
    }).initialize();
  });
  afterAll(() => ds.destroy());

  const preparedCount = async () =>
    (await ds.query<{ n: number }[]>('SELECT count(*)::int AS n FROM pg_prepared_statements'))[0]!.n;

  it('keeps at most STATEMENTS_PER_CONNECTION statements however many shapes are run', async () => {
    const shapes = STATEMENTS_PER_CONNECTION + 50;
    for (let k = 0; k < shapes; k++) {
      const [row] = await preparedQuery(ds, `SELECT $1::int + ${k} AS n`, [1]);
      expect(row!.n).toBe(1 + k);
    }
    expect(await preparedCount()).toBe(STATEMENTS_PER_CONNECTION);
  });

  it('prepares an evicted shape again and answers it correctly', async () => {
    for (let k = 0; k < STATEMENTS_PER_CONNECTION + 1; k++)
      await preparedQuery(ds, `SELECT $1::int * ${k} AS n`, [2]);
    // The first of these was the least recently used when the last one came in: it was dropped.
    const [row] = await preparedQuery(ds, 'SELECT $1::int * 0 AS n', [2]);
    expect(row!.n).toBe(0);
    expect(await preparedCount()).toBe(STATEMENTS_PER_CONNECTION);
  });

  it('keeps the connection and its statements after a statement the server refuses', async () => {
    const backend = async () => (await preparedQuery(ds, 'SELECT pg_backend_pid() AS pid', []))[0]!.pid;
    const before = await backend();
    await preparedQuery(ds, 'SELECT $1::int AS n', [1]);
    await expect(preparedQuery(ds, 'SELECT $1::int AS n', ['not a number'])).rejects.toMatchObject({
      code: '22P02',
    });
    const [row] = await preparedQuery(ds, 'SELECT $1::int AS n', [3]);
    expect(row!.n).toBe(3);
    expect(await backend()).toBe(before);
  });

  it('bounds the statements a client can create by choosing filter and order combinations', async () => {
    const repo = new CardQueryRepository(ds);
    const orders: CardOrder[] = (['price', '24h', '7d', '30d', '90d', undefined] as const).flatMap((by) =>
      (['asc', 'desc'] as const).map((direction) => ({ by, direction })),
    );
    const filters: VariantFilter[] = (['exclude', 'only', 'include'] as const).flatMap((graded) =>
      [undefined, ['foil']].flatMap((printings) =>
        [true, false].map((includeNullPrices) => ({ graded, printings, includeNullPrices })),
      ),
    );
    // 12 orders × 12 filters, each a distinct statement text: more than one connection keeps.
    for (const order of orders)
      for (const filter of filters)
        await repo.findCards(
          { by: 'browse', gameId: 'no-such-game' },
          filter,
          { limit: 5, offset: 0 },
          order,
          seriesRead({ stats: false, parts: [] }, ['EU']),
        );
    expect(orders.length * filters.length).toBeGreaterThan(STATEMENTS_PER_CONNECTION);
    expect(await preparedCount()).toBe(STATEMENTS_PER_CONNECTION);
  });
});

/**
 * A relay to the worker's database that, once armed, sends the end of the next answer (its
 * ReadyForQuery) and at once, in the same chunk, the FATAL a backend writes when its postmaster
 * died, then closes: what a replica killed just as a read finished looks like on the wire.
 */
async function dyingServer(target: URL): Promise<{ url: string; arm(): void; close(): Promise<void> }> {
  const fatal = (() => {
    const field = (type: string, value: string) =>
      Buffer.concat([Buffer.from(type), Buffer.from(`${value}\0`)]);
    const body = Buffer.concat([
      field('S', 'FATAL'),
      field('V', 'FATAL'),
      field('C', '57P01'),
      field('M', 'terminating connection due to unexpected postmaster exit'),
      Buffer.from([0]),
    ]);
    const head = Buffer.alloc(5);
    head.write('E', 0);
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  })();
  let armed = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      // ReadyForQuery: 'Z', length 5, the transaction status.
      const endsAnswer =
        chunk.length >= 6 && chunk[chunk.length - 6] === 0x5a && chunk.readInt32BE(chunk.length - 5) === 5;
      if (armed && endsAnswer) {
        armed = false;
        client.end(Buffer.concat([chunk, fatal]));
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    arm: () => (armed = true),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('preparedQuery when the server dies just after answering', () => {
  it('returns the answer, and the next read gets a fresh connection instead of crashing the process', async () => {
    const server = await dyingServer(new URL(workerDatabaseUrl()));
    const ds = await createDataSource({ url: server.url, poolSize: 1, applicationName: 'test' }).initialize();
    const crashes: unknown[] = [];
    const onUncaught = (error: unknown) => crashes.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const pid = async () => (await preparedQuery(ds, 'SELECT pg_backend_pid() AS pid', []))[0]!.pid;
      const before = await pid();
      server.arm();
      expect(await preparedQuery(ds, 'SELECT $1::int AS n', [7])).toEqual([{ n: 7 }]);
      // The FATAL is read in the same turn as the answer's end: give the socket its close.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await pid()).not.toBe(before);
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await ds.destroy();
      await server.close();
    }
  });
});

describe('preparedQuery under the data source deadlines', () => {
  let relay: TcpProxy;
  let ds: DataSource;

  // Connecting gets room; the query deadline is tested.
  useRelayedDataSource({ statementMs: 300, idleInTransactionMs: 1000 }, (opened) => ({ relay, ds } = opened));

  it('gives up waiting for a pooled connection when all are busy', async () => {
    const runner = ds.createQueryRunner();
    await runner.connect(); // the pool's only connection
    try {
      const waited = await preparedQuery(ds, 'SELECT 1', []).catch((e: unknown) => e);
      expect(waited).toBeInstanceOf(Error);
      expect(databaseUnavailable(waited)).toBe(true);
    } finally {
      await runner.release();
    }
    expect(await preparedQuery(ds, 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });

  it('gives up on a server that stops answering and replaces the connection', async () => {
    const backend = async () => (await ds.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid'))[0]!.pid;
    const before = await backend();
    relay.pause();
    const stalled = await preparedQuery(ds, 'SELECT 1', []).catch((e: unknown) => e);
    relay.resume();
    expect(databaseUnavailable(stalled)).toBe(true);
    // The stalled connection is gone: the next query runs on a fresh session.
    expect(await backend()).not.toBe(before);
  });
});
