import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { workerDatabaseUrl } from '../../testing';
import { createDataSource, databaseUnavailable } from './data-source';
import { preparedQuery } from '../reads/prepared-query';

const DEADLINES = { connectMs: 300, statementMs: 300, idleInTransactionMs: 1000 };

describe('createDataSource deadlines', () => {
  let service: DataSource;
  let tool: DataSource;

  beforeAll(async () => {
    const url = workerDatabaseUrl();
    service = await createDataSource({
      url,
      poolSize: 1,
      applicationName: 'test',
      deadlines: DEADLINES,
    }).initialize();
    tool = await createDataSource({ url, poolSize: 1, applicationName: 'test-tool' }).initialize();
  });
  afterAll(async () => {
    await service.destroy();
    await tool.destroy();
  });

  const setting = async (ds: DataSource, name: string) =>
    (await ds.query<{ v: string }[]>(`SELECT current_setting('${name}') AS v`))[0]!.v;

  it('sets the server-side timeouts on a service connection and leaves a tool unbounded', async () => {
    expect(await setting(service, 'statement_timeout')).toBe('300ms');
    expect(await setting(service, 'idle_in_transaction_session_timeout')).toBe('1s');
    expect(await setting(tool, 'statement_timeout')).toBe('0');
    expect(await setting(tool, 'idle_in_transaction_session_timeout')).toBe('0');
  });

  it('plans a service connection without JIT or parallel workers, and leaves a tool the defaults', async () => {
    expect(await setting(service, 'jit')).toBe('off');
    expect(await setting(service, 'max_parallel_workers_per_gather')).toBe('0');
    expect(await setting(tool, 'max_parallel_workers_per_gather')).not.toBe('0');
  });

  it('cancels a statement past its deadline as a database outage, and the connection serves on', async () => {
    const slow = service.query('SELECT pg_sleep(2)');
    await expect(slow).rejects.toMatchObject({ driverError: { code: '57014' } });
    expect(databaseUnavailable(await slow.catch((e: unknown) => e))).toBe(true);
    expect(await service.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('gives up waiting for a pooled connection when all are busy', async () => {
    const runner = service.createQueryRunner();
    await runner.connect(); // the pool's only connection
    try {
      const waited = await preparedQuery(service, 'SELECT 1', []).catch((e: unknown) => e);
      expect(waited).toBeInstanceOf(Error);
      expect(databaseUnavailable(waited)).toBe(true);
    } finally {
      await runner.release();
    }
    expect(await preparedQuery(service, 'SELECT 1 AS one', [])).toEqual([{ one: 1 }]);
  });
});

/**
 * A relay to PostgreSQL that can go silent: while frozen it holds every byte in both directions,
 * as a stopped server or a broken network would, then delivers them when thawed.
 */
class FreezableRelay {
  private readonly server: Server;
  private readonly held: (() => void)[] = [];
  private frozen = false;

  constructor(target: URL) {
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      const relay = (from: Socket, to: Socket) =>
        from.on('data', (chunk: Buffer) => {
          if (this.frozen) this.held.push(() => to.write(chunk));
          else to.write(chunk);
        });
      relay(client, upstream);
      relay(upstream, client);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        a.on('close', () => b.destroy());
        a.on('error', () => b.destroy());
      }
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return (this.server.address() as AddressInfo).port;
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const deliver of this.held.splice(0)) deliver();
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

describe('a server that stops answering', () => {
  let relay: FreezableRelay;
  let ds: DataSource;

  beforeAll(async () => {
    const target = new URL(workerDatabaseUrl());
    relay = new FreezableRelay(target);
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(await relay.start());
    ds = await createDataSource({
      url: url.toString(),
      poolSize: 1,
      applicationName: 'test',
      // What is tested is the query deadline; connecting (through the relay, on a loaded CI
      // machine) gets room, so the suite does not fail before it starts.
      deadlines: { ...DEADLINES, connectMs: 5000 },
    }).initialize();
  });
  afterAll(async () => {
    relay.thaw();
    await ds?.destroy();
    await relay.close();
  });

  const backend = async () => (await ds.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid'))[0]!.pid;

  it.each([
    ['a TypeORM query', () => ds.query('SELECT 1')],
    ['a prepared statement', () => preparedQuery(ds, 'SELECT 1', [])],
  ])('gives up on %s past the client-side deadline and replaces the connection', async (_, query) => {
    const before = await backend();
    relay.freeze();
    const stalled = await query().catch((e: unknown) => e);
    relay.thaw();
    expect(databaseUnavailable(stalled)).toBe(true);
    // The stalled connection is gone: the next query runs on a fresh session.
    expect(await backend()).not.toBe(before);
  });
});
