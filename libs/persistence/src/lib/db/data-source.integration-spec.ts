import { DataSource } from 'typeorm';
import { TcpProxy, useRelayedDataSource, workerDatabaseUrl } from '../../testing';
import { createDataSource, databaseUnavailable } from './data-source';

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
      const waited = await service.query('SELECT 1').catch((e: unknown) => e);
      expect(waited).toBeInstanceOf(Error);
      expect(databaseUnavailable(waited)).toBe(true);
    } finally {
      await runner.release();
    }
    expect(await service.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});

describe('a server that stops answering', () => {
  let relay: TcpProxy;
  let ds: DataSource;

  // What is tested is the query deadline; connecting gets room.
  useRelayedDataSource(DEADLINES, (opened) => ({ relay, ds } = opened));

  const backend = async () => (await ds.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid'))[0]!.pid;

  it('gives up on a query past the client-side deadline and replaces the connection', async () => {
    const before = await backend();
    relay.pause();
    const stalled = await ds.query('SELECT 1').catch((e: unknown) => e);
    relay.resume();
    expect(databaseUnavailable(stalled)).toBe(true);
    // The stalled connection is gone: the next query runs on a fresh session.
    expect(await backend()).not.toBe(before);
  });
});
