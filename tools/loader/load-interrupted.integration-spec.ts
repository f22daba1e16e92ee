import { refreshSummaries, removeCatalogue } from '@tcg/persistence';
import { useTestDatabase } from '@tcg/persistence/testing';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { startCli } from '../testing/cli-process';

/** `npm run load` (`node dist/tools/loader/load.js`, so build first) killed mid-load, then run again. */
const LOAD = join(resolve(__dirname, '../..'), 'dist/tools/loader/load.js');

const load = () => startCli(LOAD, ['--size', 'small']);

describe('npm run load killed mid-load (PostgreSQL)', () => {
  let ds: DataSource;

  useTestDatabase((opened) => (ds = opened), {
    truncate: 'never',
    beforeClose: async () => {
      // Leave this worker's database as the other suites expect it: no catalogue.
      await removeCatalogue(ds);
      await ds.query('DELETE FROM sample_loads');
      await refreshSummaries(ds);
    },
  });
  beforeAll(async () => {
    await removeCatalogue(ds);
    await ds.query('DELETE FROM sample_loads');
  });

  it('the next load removes the partial catalogue and loads it whole', async () => {
    const first = load();
    const deadline = Date.now() + 60_000;
    while (!first.stderr().includes('"msg":"load progress"')) {
      if (first.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`no load progress: ${first.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(first.stderr()).not.toContain('"msg":"load done"');
    expect((await ds.query('SELECT completed_at FROM sample_loads'))[0]).toEqual({ completed_at: null });

    const second = load();
    expect(await second.exited).toBe(0);
    expect(second.stderr()).toContain('the previous sample load was interrupted');
    const done = JSON.parse(
      second
        .stderr()
        .split('\n')
        .find((l) => l.includes('"msg":"load done"'))!,
    ) as Record<string, number>;
    const [counts] = await ds.query(`
      SELECT (SELECT count(*)::int FROM cards) AS cards,
             (SELECT count(*)::int FROM variant_prices) AS "pricedVariants",
             (SELECT sum(cardinality(offsets))::int FROM price_series) AS observations,
             (SELECT count(*)::int FROM summary_marks) AS marks,
             (SELECT count(*)::int FROM card_documents
              WHERE v1_variants IS NOT NULL AND v1_bare_variants IS NOT NULL AND v2_variants IS NOT NULL)
               AS documents,
             (SELECT count(DISTINCT card_uuid)::int FROM variants WHERE type = 'raw') AS "cardsWithRaw",
             (SELECT completed_at IS NOT NULL FROM sample_loads) AS complete`);
    expect(counts).toEqual({
      cards: done['cards'],
      pricedVariants: done['pricedVariants'],
      observations: done['observations'],
      marks: 0,
      // Every card's documents, priced or not (the load renders them with the prices, then the rest).
      documents: counts.cardsWithRaw,
      cardsWithRaw: expect.any(Number),
      complete: true,
    });
  }, 120_000);
});
