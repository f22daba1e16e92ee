import { MigrationInterface, QueryRunner } from 'typeorm';
import { createSetAndGameSummaries } from './1764000000000-catalogue-summaries';
import { createCardValues, dropSummaries } from './1764500000000-one-card-summary';

/** What the aggregates count: every card of a game priced only by simulation, else its real ones. */
export const COUNTED_CARD_VALUES = `
  SELECT cv.*
  FROM (SELECT cv.*, bool_or(NOT cv.simulated) OVER (PARTITION BY cv.game_id) AS game_has_real
        FROM card_values cv) cv
  WHERE NOT cv.simulated OR NOT cv.game_has_real`;

/**
 * The v1 aggregates (a game's value index and its 7-day reference, each set's value) never add
 * simulated and real prices (issue 36): once any card of a game has a real price in NA (a feed's
 * or an operator's import, any source but `simulated`), the game's and its sets' figures count
 * real prices only; a game priced only by the sample's simulation keeps counting those.
 *
 * card_values gains `simulated` (its card's top variant is priced by simulation) and picks a card's
 * top variant among its real prices first, so a card with both counts its real one. It still holds
 * every card with a raw NA price, as the card pages' existence test reads it.
 */
export class RealPricesInAggregates1765760000000 implements MigrationInterface {
  name = 'RealPricesInAggregates1765760000000';

  async up(q: QueryRunner): Promise<void> {
    await dropSummaries(q);
    await q.query(`
      CREATE MATERIALIZED VIEW card_values AS
      SELECT DISTINCT ON (v.card_uuid)
             v.card_uuid, c.game_id, c.set_uuid, vp.price, vp.price_7d_ref,
             vp.change_24h, vp.change_7d, vp.change_30d, vp.change_90d, vp.updated_at,
             vp.source = 'simulated' AS simulated
      FROM variants v
      JOIN cards c ON c.uuid = v.card_uuid
      JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'
      WHERE v.type = 'raw'
      ORDER BY v.card_uuid, vp.source = 'simulated', vp.price DESC, v.uuid`);
    await q.query(`CREATE UNIQUE INDEX card_values_card_idx ON card_values (card_uuid)`);
    await q.query(`CREATE INDEX card_values_game_idx ON card_values (game_id)`);

    await q.query(`
      CREATE MATERIALIZED VIEW set_summaries AS
      SELECT s.uuid AS set_uuid,
             (SELECT count(*) FROM cards c WHERE c.set_uuid = s.uuid AND NOT c.sealed)::int AS cards_count,
             coalesce(sv.value_cents, 0)::bigint AS value_cents
      FROM sets s
      LEFT JOIN (SELECT set_uuid, sum(price) AS value_cents FROM (${COUNTED_CARD_VALUES}) counted GROUP BY set_uuid) sv
        ON sv.set_uuid = s.uuid`);
    await q.query(`CREATE UNIQUE INDEX set_summaries_set_idx ON set_summaries (set_uuid)`);

    await q.query(`
      CREATE MATERIALIZED VIEW game_summaries AS
      SELECT g.id AS game_id,
             (SELECT count(*) FROM cards c WHERE c.game_id = g.id AND NOT c.sealed)::int AS cards_count,
             (SELECT count(*) FROM cards c WHERE c.game_id = g.id AND c.sealed)::int AS sealed_count,
             (SELECT count(*) FROM sets s WHERE s.game_id = g.id)::int AS sets_count,
             (SELECT count(*) FROM variants v JOIN cards c ON c.uuid = v.card_uuid
               WHERE c.game_id = g.id AND v.type = 'raw')::int AS variants_count,
             coalesce(cv.value_cents, 0)::bigint AS value_cents,
             cv.value_7d_ago_cents::bigint AS value_7d_ago_cents,
             cv.last_updated
      FROM games g
      LEFT JOIN (
        SELECT game_id,
               sum(price) AS value_cents,
               sum(coalesce(price_7d_ref, price)) AS value_7d_ago_cents,
               max(updated_at) AS last_updated
        FROM (${COUNTED_CARD_VALUES}) counted GROUP BY game_id
      ) cv ON cv.game_id = g.id`);
    await q.query(`CREATE UNIQUE INDEX game_summaries_game_idx ON game_summaries (game_id)`);
    await grantAndAnalyze(q);
  }

  async down(q: QueryRunner): Promise<void> {
    // As Price7dReference1765100000000 left them.
    await dropSummaries(q);
    await createCardValues(q, 'vp.price, vp.price_7d_ref');
    await createSetAndGameSummaries(q, {
      column: 'cv.value_7d_ago_cents::bigint',
      sum: 'sum(coalesce(price_7d_ref, price))',
    });
    await grantAndAnalyze(q);
  }
}

/** What DatabaseRoles1764760000000 granted on the views, which a drop took with them. */
async function grantAndAnalyze(q: QueryRunner): Promise<void> {
  await q.query(`GRANT SELECT ON card_values, set_summaries, game_summaries TO tcg_reader, tcg_importer`);
  for (const view of ['card_values', 'set_summaries', 'game_summaries']) await q.query(`ANALYZE ${view}`);
}
