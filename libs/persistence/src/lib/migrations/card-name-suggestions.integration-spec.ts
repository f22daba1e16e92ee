import { DataSource } from 'typeorm';
import { useTestDatabase } from '../../testing';
import { CardNameSuggestions1765300000000 } from './1765300000000-card-name-suggestions';
import { CardNamesGinInPlace1765870000000 } from './1765870000000-card-names-gin-in-place';

describe('CardNameSuggestions1765300000000 (PostgreSQL)', () => {
  let ds: DataSource;
  useTestDatabase((opened) => (ds = opened), { truncate: 'never' });

  const views = async () =>
    (
      (await ds.query(
        `SELECT matviewname FROM pg_matviews WHERE matviewname IN ('card_names', 'card_name_words') ORDER BY 1`,
      )) as { matviewname: string }[]
    ).map((r) => r.matviewname);

  it('drops both summaries with down and builds them again with up, granted to the readers', async () => {
    const runner = ds.createQueryRunner();
    try {
      await new CardNameSuggestions1765300000000().down(runner);
      expect(await views()).toEqual([]);
      await new CardNameSuggestions1765300000000().up(runner);
      expect(await views()).toEqual(['card_name_words', 'card_names']);
      const [{ granted }] = (await ds.query(
        `SELECT has_table_privilege('tcg_reader', 'card_name_words', 'SELECT') AS granted`,
      )) as { granted: boolean }[];
      expect(granted).toBe(true);
    } finally {
      // What later migrations changed on these views, so this worker's later suites find them migrated.
      await new CardNamesGinInPlace1765870000000().up(runner);
      await runner.release();
    }
  });
});
