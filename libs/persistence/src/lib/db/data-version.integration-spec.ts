import { DataSource } from 'typeorm';
import { tinyCatalogue, useTestDatabase, workerDatabaseUrl } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { poolOf } from './data-source';
import { DataVersionWatcher, readDataVersion } from './data-version';
import { refreshSummaries } from '../summaries';

/** Resolves with the watcher's next version that satisfies `test`, or rejects after 5 s. */
function nextVersion(
  watcher: DataVersionWatcher,
  test: (v: number | null) => boolean,
): Promise<number | null> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error('no such version within 5 s')), 5000);
    const off = watcher.onChange((v) => {
      if (!test(v)) return;
      clearTimeout(timer);
      off();
      done(v);
    });
  });
}

describe('data version (PostgreSQL)', () => {
  let ds: DataSource;
  let watcher: DataVersionWatcher;
  const committed = () => readDataVersion(poolOf(ds));

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    watcher = new DataVersionWatcher({
      url: workerDatabaseUrl(),
      applicationName: 'data-version-test',
      timeoutMs: 2000,
      retryMs: 50,
    });
    await watcher.start();
  });
  afterAll(async () => {
    await watcher.stop();
  });

  it('starts at the committed version', async () => {
    expect(watcher.current()).toBe(await committed());
  });

  it('moves once per committed write transaction, in commit order, and learns it without asking', async () => {
    const before = watcher.current()!;
    const seen = nextVersion(watcher, (v) => v !== null && v > before);
    await writeCatalogue(ds, tinyCatalogue());
    expect(await seen).toBe(await committed());
    expect(watcher.current()).toBeGreaterThan(before);
  });

  it('does not move for a rolled-back write', async () => {
    const before = await committed();
    await ds
      .transaction(async (m) => {
        await m.query(`INSERT INTO games (id, name) VALUES ('rolled-back', 'Rolled Back')`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await committed()).toBe(before);
  });

  it('takes one version for a transaction of many statements', async () => {
    const before = await committed();
    await ds.transaction(async (m) => {
      await m.query(`INSERT INTO games (id, name) VALUES ('g1', 'G1')`);
      await m.query(`INSERT INTO games (id, name) VALUES ('g2', 'G2')`);
      await m.query(`UPDATE games SET name = 'G2b' WHERE id = 'g2'`);
    });
    expect(await committed()).toBe(before + 1);
  });

  it('moves when the summaries are refreshed', async () => {
    const before = await committed();
    await refreshSummaries(ds);
    expect(await committed()).toBe(before + 1);
  });

  it('is unknown while its connection is gone, and known again once it has reconnected', async () => {
    const lost = nextVersion(watcher, (v) => v === null);
    const back = nextVersion(watcher, (v) => v !== null);
    await ds.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'data-version-test data-version'`,
    );
    expect(await lost).toBeNull();
    expect(await back).toBe(await committed());
  });
});
