import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  COUNTED_CARD_VALUES,
  RealPricesInAggregates1765760000000,
} from './1765760000000-real-prices-in-aggregates';

/**
 * The game-level summaries computed in one pass over their tables, not once per game (issue 36),
 * and their refresh without JIT compilation.
 *
 * game_summaries counted each game's raw variants, and game_price_sources listed each game's
 * sources, with a subquery per game: a scan of every variant (or price) per game, 85 scans with
 * TCGplayer's 85 categories. At 2% of the marketplace (85 games, 48,570 variants) that was 4.9 s of
 * a 28 s refresh, and it grows with games × variants. Each now groups its table once and joins
 * the games. set_summaries' per-set card count is grouped the same way. Same columns, same types,
 * same rows: the readers see no change.
 *
 * `tcg_refresh_summary` runs with `jit = off`: the refreshes' cost estimates are high enough for
 * PostgreSQL to compile every statement, and compiling (with inlining and optimisation) cost
 * 1.4 s per view at that size, more than the work it sped up (game_summaries: 7.8 s with JIT,
 * 4.9 s without).
 */
export class SummariesInOnePass1765770000000 implements MigrationInterface {
  name = 'SummariesInOnePass1765770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP MATERIALIZED VIEW game_summaries`);
    await q.query(`DROP MATERIALIZED VIEW set_summaries`);
    await q.query(`DROP MATERIALIZED VIEW game_price_sources`);

    await q.query(`
      CREATE MATERIALIZED VIEW set_summaries AS
      SELECT s.uuid AS set_uuid,
             coalesce(sc.cards, 0)::int AS cards_count,
             coalesce(sv.value_cents, 0)::bigint AS value_cents
      FROM sets s
      LEFT JOIN (SELECT set_uuid, count(*) AS cards FROM cards WHERE NOT sealed GROUP BY set_uuid) sc
        ON sc.set_uuid = s.uuid
      LEFT JOIN (SELECT set_uuid, sum(price) AS value_cents FROM (${COUNTED_CARD_VALUES}) counted
                 GROUP BY set_uuid) sv
        ON sv.set_uuid = s.uuid`);
    await q.query(`CREATE UNIQUE INDEX set_summaries_set_idx ON set_summaries (set_uuid)`);

    await q.query(`
      CREATE MATERIALIZED VIEW game_summaries AS
      SELECT g.id AS game_id,
             coalesce(cc.cards, 0)::int AS cards_count,
             coalesce(cc.sealed, 0)::int AS sealed_count,
             coalesce(sc.sets, 0)::int AS sets_count,
             coalesce(vc.variants, 0)::int AS variants_count,
             coalesce(cv.value_cents, 0)::bigint AS value_cents,
             cv.value_7d_ago_cents::bigint AS value_7d_ago_cents,
             cv.last_updated
      FROM games g
      LEFT JOIN (SELECT game_id, count(*) FILTER (WHERE NOT sealed) AS cards,
                        count(*) FILTER (WHERE sealed) AS sealed
                 FROM cards GROUP BY game_id) cc ON cc.game_id = g.id
      LEFT JOIN (SELECT game_id, count(*) AS sets FROM sets GROUP BY game_id) sc ON sc.game_id = g.id
      LEFT JOIN (SELECT c.game_id, count(*) AS variants
                 FROM variants v JOIN cards c ON c.uuid = v.card_uuid
                 WHERE v.type = 'raw' GROUP BY c.game_id) vc ON vc.game_id = g.id
      LEFT JOIN (SELECT game_id, sum(price) AS value_cents,
                        sum(coalesce(price_7d_ref, price)) AS value_7d_ago_cents,
                        max(updated_at) AS last_updated
                 FROM (${COUNTED_CARD_VALUES}) counted GROUP BY game_id) cv ON cv.game_id = g.id`);
    await q.query(`CREATE UNIQUE INDEX game_summaries_game_idx ON game_summaries (game_id)`);

    await q.query(`
      CREATE MATERIALIZED VIEW game_price_sources AS
      SELECT g.id AS game_id, coalesce(ps.sources, '{}')::text[] AS sources
      FROM games g
      LEFT JOIN (SELECT game_id, array_agg(source ORDER BY source) AS sources
                 FROM (SELECT DISTINCT c.game_id, vp.source
                       FROM variant_prices vp
                       JOIN variants v ON v.uuid = vp.variant_uuid
                       JOIN cards c ON c.uuid = v.card_uuid) d
                 GROUP BY game_id) ps ON ps.game_id = g.id`);
    await q.query(`CREATE UNIQUE INDEX game_price_sources_game_idx ON game_price_sources (game_id)`);

    await grantAndAnalyze(q);
    await q.query(`ALTER FUNCTION tcg_refresh_summary(text) SET jit = off`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER FUNCTION tcg_refresh_summary(text) RESET jit`);
    await q.query(`DROP MATERIALIZED VIEW game_price_sources`);
    await q.query(`
      CREATE MATERIALIZED VIEW game_price_sources AS
      SELECT g.id AS game_id,
             coalesce((SELECT array_agg(s.source ORDER BY s.source)
                       FROM (SELECT DISTINCT vp.source
                             FROM cards c
                             JOIN variants v ON v.card_uuid = c.uuid
                             JOIN variant_prices vp ON vp.variant_uuid = v.uuid
                             WHERE c.game_id = g.id) s), '{}')::text[] AS sources
      FROM games g`);
    await q.query(`CREATE UNIQUE INDEX game_price_sources_game_idx ON game_price_sources (game_id)`);
    // The real-prices views, as that migration creates them (it drops card_values too).
    await new RealPricesInAggregates1765760000000().up(q);
    await grantAndAnalyze(q);
  }
}

/** What the views had granted before they were dropped (DatabaseRoles, PriceSources migrations). */
async function grantAndAnalyze(q: QueryRunner): Promise<void> {
  await q.query(
    `GRANT SELECT ON set_summaries, game_summaries, game_price_sources TO tcg_reader, tcg_importer`,
  );
  for (const view of ['set_summaries', 'game_summaries', 'game_price_sources'])
    await q.query(`ANALYZE ${view}`);
}
