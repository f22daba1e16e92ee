import { DataSource } from 'typeorm';
import { workerDatabaseUrl } from '../testing';
import { createDataSource } from './data-source';
import { preparedQuery, STATEMENTS_PER_CONNECTION } from './prepared-query';
import { CardQueryRepository } from './repositories/card-query.repository';
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
          'EU',
          order,
          { stats: false, parts: [] },
        );
    expect(orders.length * filters.length).toBeGreaterThan(STATEMENTS_PER_CONNECTION);
    expect(await preparedCount()).toBe(STATEMENTS_PER_CONNECTION);
  });
});
