import { DataSource } from 'typeorm';

/**
 * Recomputes the card, set and game values (see the CatalogueSummaries migration). Called once at
 * the end of a load or an import; CONCURRENTLY keeps them readable while they refresh.
 */
export async function refreshSummaries(ds: DataSource): Promise<void> {
  for (const view of ['card_values', 'set_summaries', 'game_summaries']) {
    await ds.query(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${view}`);
  }
}
