import { DataSource } from 'typeorm';
import { workerDatabaseUrl } from '../../testing';
import { createDataSource } from '../db/data-source';
import { CancelledStatement, onStatementCancelled } from '../db/statement-cancellations';
import { preparedQuery } from './prepared-query';

describe('prepared reads cut short', () => {
  let ds: DataSource;
  const seen: CancelledStatement[] = [];
  let stop: () => void;

  beforeAll(async () => {
    // A statement_timeout far below the sleep: the server cancels it.
    ds = await createDataSource({
      url: workerDatabaseUrl(),
      poolSize: 2,
      applicationName: 'test',
      deadlines: { connectMs: 5_000, statementMs: 50, idleInTransactionMs: 5_000 },
    }).initialize();
    stop = onStatementCancelled((cancelled) => seen.push(cancelled));
  });
  afterAll(async () => {
    stop();
    await ds.destroy();
  });

  it('reports a statement cancelled by statement_timeout, by its name, and still fails the read', async () => {
    seen.length = 0;
    await expect(preparedQuery(ds, 'SELECT pg_sleep($1::float8)', [2])).rejects.toMatchObject({
      code: '57014',
    });
    expect(seen).toEqual([
      { reason: 'statement_timeout', statement: expect.stringMatching(/^q_[\w-]{24}$/) },
    ]);
  });

  it('does not report a statement that failed otherwise', async () => {
    seen.length = 0;
    await expect(preparedQuery(ds, 'SELECT 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
    expect(seen).toEqual([]);
  });
});
