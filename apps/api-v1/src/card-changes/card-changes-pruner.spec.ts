import { ManualVersions } from '@tcg/http-service/testing';
import type { Pool } from 'pg';
import { CARD_CHANGES_KEPT_MS, CardChangesPruner } from './card-changes-pruner.service';

describe('CardChangesPruner', () => {
  it('prunes up to the newest version it saw at least the kept time ago, never a younger one', async () => {
    const sent: unknown[][] = [];
    const pool = {
      query: async (config: { values: unknown[] }) => {
        sent.push(config.values);
        return { rows: [{ rows: 3 }], rowCount: 1 };
      },
    } as unknown as Pool;
    const versions = new ManualVersions(5);
    const pruner = new CardChangesPruner(versions, pool);
    const t0 = 1_000_000;
    await pruner.prune(t0);
    versions.set(8);
    await pruner.prune(t0 + CARD_CHANGES_KEPT_MS / 2);
    expect(sent).toEqual([]);
    versions.set(9);
    await pruner.prune(t0 + CARD_CHANGES_KEPT_MS);
    expect(sent).toEqual([['5']]);
    await pruner.prune(t0 + CARD_CHANGES_KEPT_MS + 1);
    expect(sent).toEqual([['5']]);
    await pruner.prune(t0 + CARD_CHANGES_KEPT_MS * 2);
    expect(sent).toEqual([['5'], ['9']]);
  });
});
