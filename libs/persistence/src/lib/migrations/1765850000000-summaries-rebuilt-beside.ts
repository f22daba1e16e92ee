import { MigrationInterface, QueryRunner } from 'typeorm';
import { summaryRefreshFunction } from './1764760000000-database-roles';
import { createTopSortIndexes, dropTopSortIndexes } from './1764800000000-card-facets';

/**
 * How long the swap waits for the readers of the view in one attempt, and how many attempts it
 * makes before it refreshes in place instead: a reader queued behind the swap waits at most one
 * attempt.
 */
const SWAP_LOCK_TIMEOUT = '200ms';
/** The default; a session may set `tcg.summary_swap_attempts` (the tests do, to reach the fallback). */
const SWAP_ATTEMPTS = 50;

/**
 * Summaries no other view is built on are rebuilt beside themselves and swapped in (issue 36).
 *
 * `REFRESH … CONCURRENTLY` computes the new rows, joins them to the old ones and applies the
 * difference row by row, each row through every index. At the marketplace's size a day that moves
 * every price changes every priced row of card_tops (1.1M rows, 13 indexes): 82.6 s for that view
 * alone, where building it afresh and indexing it by sorting takes 26 s whatever changed. So
 * `tcg_refresh_summary` now builds `<view>_next` from the view's own definition, indexes it as the
 * view is indexed, analyses it, grants it what the view had, and then, holding the view's lock
 * only for that, drops the view and renames the new one into its place: readers see the old rows
 * or the new ones, never a half. A reader that holds the view when the swap starts delays it: the
 * swap waits SWAP_LOCK_TIMEOUT per attempt (a reader arriving meanwhile waits as long), and after
 * SWAP_ATTEMPTS it drops what it built and refreshes in place, as before. A view another view is
 * built on (card_values, card_facets, card_names) cannot be dropped; it is refreshed in place.
 * A kill at any point leaves the old view (the function is one transaction).
 *
 * card_tops' sort indexes also leave out region `*` (every card, no price: read in card order, never
 * by a sort index), half their rows: the reads that sort say `top.region <> '*'` (topRegionMatch).
 */
export class SummariesRebuiltBeside1765850000000 implements MigrationInterface {
  name = 'SummariesRebuiltBeside1765850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION tcg_refresh_summary(view_name text) RETURNS void
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp SET jit = off AS $$
      DECLARE
        summary regclass;
        next_name text := 'tcg_next_' || md5(view_name);
        index_names text[] := '{}';
        item record;
        attempts int := coalesce(nullif(current_setting('tcg.summary_swap_attempts', true), '')::int, ${SWAP_ATTEMPTS});
      BEGIN
        IF NOT EXISTS (SELECT FROM pg_matviews WHERE schemaname = 'public' AND matviewname = view_name) THEN
          RAISE EXCEPTION 'not a summary view: %', view_name;
        END IF;
        -- One refresh of a view at a time, keyed by name (a swap gives the view a new oid): the
        -- second waits, then refreshes the view the first left.
        PERFORM pg_advisory_xact_lock(hashtext('tcg_refresh_summary'), hashtext(view_name));
        summary := format('public.%I', view_name)::regclass;
        IF EXISTS (SELECT FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
                   WHERE d.refobjid = summary AND r.ev_class <> summary) THEN
          EXECUTE format('REFRESH MATERIALIZED VIEW CONCURRENTLY %s', summary);
          EXECUTE format('ANALYZE %s', summary);
          RETURN;
        END IF;
        SET LOCAL maintenance_work_mem = '256MB';
        EXECUTE format('CREATE MATERIALIZED VIEW public.%I AS %s', next_name, pg_get_viewdef(summary));
        FOR item IN
          SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS def
          FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
          WHERE x.indrelid = summary ORDER BY i.relname
        LOOP
          index_names := index_names || item.name;
          EXECUTE regexp_replace(item.def, '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ',
            format('CREATE \\1INDEX %I ON public.%I ', next_name || '_' || cardinality(index_names), next_name));
        END LOOP;
        EXECUTE format('ANALYZE public.%I', next_name);
        FOR item IN
          SELECT a.grantee::regrole::text AS grantee, a.privilege_type AS privilege
          FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
          WHERE c.oid = summary AND a.grantee <> c.relowner
        LOOP
          EXECUTE format('GRANT %s ON public.%I TO %I', item.privilege, next_name, item.grantee);
        END LOOP;
        FOR attempt IN 1..attempts LOOP
          BEGIN
            SET LOCAL lock_timeout = '${SWAP_LOCK_TIMEOUT}';
            EXECUTE format('DROP MATERIALIZED VIEW %s', summary);
            EXECUTE format('ALTER MATERIALIZED VIEW public.%I RENAME TO %I', next_name, view_name);
            FOR i IN 1..cardinality(index_names) LOOP
              EXECUTE format('ALTER INDEX public.%I RENAME TO %I', next_name || '_' || i, index_names[i]);
            END LOOP;
            RETURN;
          EXCEPTION WHEN lock_not_available THEN
            PERFORM pg_sleep(0.05);
          END;
        END LOOP;
        -- Readers held the view throughout: refreshed in place, readable all along.
        EXECUTE format('DROP MATERIALIZED VIEW public.%I', next_name);
        EXECUTE format('REFRESH MATERIALIZED VIEW CONCURRENTLY %s', summary);
        EXECUTE format('ANALYZE %s', summary);
      END
      $$`);
    await dropTopSortIndexes(q);
    await createTopSortIndexes(q, `WHERE region <> '*'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await summaryRefreshFunction(q);
    await q.query(`ALTER FUNCTION tcg_refresh_summary(text) SET jit = off`);
    await dropTopSortIndexes(q);
    await createTopSortIndexes(q);
  }
}
