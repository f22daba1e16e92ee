import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-card, per-set and per-game values (v1 /games and /sets), precomputed so no request
 * aggregates a game's prices. A card's value is its highest-priced raw variant in NA; a set's and a
 * game's value is the sum of their cards' values. The 7-day change of a game's index compares that
 * sum with the same variants' prices 7 days earlier (from each variant's stored 7d change).
 * Refreshed by `refreshSummaries` after a load or an import, not per request.
 */
export class CatalogueSummaries1764000000000 implements MigrationInterface {
  name = 'CatalogueSummaries1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE MATERIALIZED VIEW card_values AS
      SELECT DISTINCT ON (v.card_uuid)
             v.card_uuid, c.game_id, c.set_uuid, vp.price, vp.change_7d, vp.updated_at
      FROM variants v
      JOIN cards c ON c.uuid = v.card_uuid
      JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = 'NA'
      WHERE v.type = 'raw'
      ORDER BY v.card_uuid, vp.price DESC, v.uuid`);
    await q.query(`CREATE UNIQUE INDEX card_values_card_idx ON card_values (card_uuid)`);

    await createSetAndGameSummaries(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS game_summaries`);
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS set_summaries`);
    await q.query(`DROP MATERIALIZED VIEW IF EXISTS card_values`);
  }
}

/**
 * The set and game summaries over card_values; also run by a later migration that redefines
 * card_values (they depend on it, so they are dropped and created again with it).
 */
export async function createSetAndGameSummaries(
  q: QueryRunner,
  /** How game_summaries.value_7d_ago_cents is made: the column and, over card_values, its sum. */
  valueAgo: { readonly column: string; readonly sum: string } = {
    column: 'cv.value_7d_ago_cents',
    sum: `sum(CASE WHEN change_7d IS NULL OR change_7d <= -100 THEN price
                        ELSE price / (1 + change_7d / 100) END)`,
  },
): Promise<void> {
  await q.query(`
      CREATE MATERIALIZED VIEW set_summaries AS
      SELECT s.uuid AS set_uuid,
             (SELECT count(*) FROM cards c WHERE c.set_uuid = s.uuid AND NOT c.sealed)::int AS cards_count,
             coalesce((SELECT sum(cv.price) FROM card_values cv WHERE cv.set_uuid = s.uuid), 0)::bigint AS value_cents
      FROM sets s`);
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
             ${valueAgo.column} AS value_7d_ago_cents,
             cv.last_updated
      FROM games g
      LEFT JOIN (
        SELECT game_id,
               sum(price) AS value_cents,
               ${valueAgo.sum} AS value_7d_ago_cents,
               max(updated_at) AS last_updated
        FROM card_values GROUP BY game_id
      ) cv ON cv.game_id = g.id`);
  await q.query(`CREATE UNIQUE INDEX game_summaries_game_idx ON game_summaries (game_id)`);
}
