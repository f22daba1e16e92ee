import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Group roles, one per kind of client, so that no app holds the owner's privileges (docs/deploying.md,
 * "PostgreSQL roles"): the operator creates a login role in each (`CREATE ROLE tcg_gw LOGIN
 * PASSWORD '…' IN ROLE tcg_gateway`) and gives each app its own URL. The owner (the URL the
 * migrations and the key CLI use) keeps everything else.
 *
 * Roles belong to the cluster, not the database: several databases (test ones, a staging copy)
 * run this migration against one server, so a role that exists already, or is created meanwhile
 * by another database's migration, is left as it is. The grants are the database's own.
 *
 * Every table is named in ACCESS (a later migration that adds one grants it there too; the
 * persistence integration spec fails on a table no role was considered for). No default
 * privileges: a future table is nobody's until a migration says whose it is.
 */
export const DATABASE_ROLES = ['tcg_gateway', 'tcg_reader', 'tcg_importer'] as const;

const CATALOGUE = ['games', 'sets', 'cards', 'variants', 'price_series', 'variant_prices', 'card_documents'];
const SUMMARIES = ['card_values', 'set_summaries', 'game_summaries'];
const BULK = ['bulk_snapshots', 'bulk_chunks'];

/** Per role, the privileges on each table (and the sequences behind the tables it inserts into). */
const ACCESS: Record<
  (typeof DATABASE_ROLES)[number],
  { tables: Record<string, string>; sequences: string[] }
> = {
  // Keys and plans to admit a request, quota counters when there is no Redis, the data version
  // its listener reads. Nothing of the catalogue.
  tcg_gateway: {
    tables: {
      api_keys: 'SELECT',
      plans: 'SELECT',
      quota_counters: 'SELECT, INSERT, UPDATE, DELETE',
      quota_reconciliations: 'SELECT, INSERT, UPDATE, DELETE',
      data_version: 'SELECT',
    },
    sequences: [],
  },
  // api-v1 and api-v2 read the catalogue; the one thing they write is api-v1's bulk snapshots,
  // files derived from it (BULK_GENERATION), which is why tcg_reader may write those two tables.
  tcg_reader: {
    tables: {
      ...Object.fromEntries([...CATALOGUE, ...SUMMARIES, 'data_version'].map((t) => [t, 'SELECT'])),
      ...Object.fromEntries(BULK.map((t) => [t, 'SELECT, INSERT, UPDATE, DELETE'])),
    },
    sequences: ['bulk_snapshots_id_seq'],
  },
  // The importer, the loader and the bulk tool: the catalogue and prices, the marks that say the
  // summaries are stale, the data version its triggers take, the bulk snapshots. The summaries are
  // refreshed through tcg_refresh_summary: REFRESH needs the views' owner.
  tcg_importer: {
    tables: {
      ...Object.fromEntries(
        [...CATALOGUE, 'summary_marks', 'sample_loads'].map((t) => [
          t,
          'SELECT, INSERT, UPDATE, DELETE, TRUNCATE',
        ]),
      ),
      ...Object.fromEntries(SUMMARIES.map((t) => [t, 'SELECT'])),
      ...Object.fromEntries(BULK.map((t) => [t, 'SELECT, INSERT, UPDATE, DELETE'])),
      data_version: 'SELECT, UPDATE',
      // The tools migrate as they open the database: with the list of applied migrations
      // readable, an up-to-date schema needs nothing of them (a pending one fails, as it should).
      typeorm_migrations: 'SELECT',
    },
    sequences: ['summary_marks_id_seq', 'bulk_snapshots_id_seq'],
  },
};

export class DatabaseRoles1764760000000 implements MigrationInterface {
  name = 'DatabaseRoles1764760000000';

  async up(q: QueryRunner): Promise<void> {
    for (const role of DATABASE_ROLES) {
      // Checked first, so that an owner without CREATEROLE migrates once an operator has created
      // the roles; the handler covers another database's migration creating it meanwhile.
      await q.query(`
        DO $$ BEGIN
          IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN
            CREATE ROLE ${role} NOLOGIN;
          END IF;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
        END $$`);
      const { tables, sequences } = ACCESS[role];
      for (const [table, privileges] of Object.entries(tables))
        await q.query(`GRANT ${privileges} ON ${table} TO ${role}`);
      for (const sequence of sequences)
        await q.query(`GRANT USAGE, SELECT ON SEQUENCE ${sequence} TO ${role}`);
    }
    await summaryRefreshFunction(q);
    await q.query(`REVOKE ALL ON FUNCTION tcg_refresh_summary(text) FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION tcg_refresh_summary(text) TO tcg_importer`);
  }

  /** The grants go; the roles stay, since other databases of the cluster may use them. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION IF EXISTS tcg_refresh_summary(text)`);
    for (const role of DATABASE_ROLES) {
      const { tables, sequences } = ACCESS[role];
      await q.query(`REVOKE ALL ON ${Object.keys(tables).join(', ')} FROM ${role}`);
      if (sequences.length > 0) await q.query(`REVOKE ALL ON SEQUENCE ${sequences.join(', ')} FROM ${role}`);
    }
  }
}

/**
 * `tcg_refresh_summary(view)`: refreshes and analyzes a materialized view of the schema (every one
 * is a summary) as its owner, since REFRESH and ANALYZE need the owner; for the importer's role. Any other name is
 * refused. First created here with a fixed list of views; CardFacets1764800000000 replaced it
 * with this, so that a later summary needs no new function.
 */
export async function summaryRefreshFunction(q: QueryRunner): Promise<void> {
  await q.query(`
    CREATE OR REPLACE FUNCTION tcg_refresh_summary(view_name text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    BEGIN
      IF NOT EXISTS (SELECT FROM pg_matviews WHERE schemaname = 'public' AND matviewname = view_name) THEN
        RAISE EXCEPTION 'not a summary view: %', view_name;
      END IF;
      EXECUTE format('REFRESH MATERIALIZED VIEW CONCURRENTLY public.%I', view_name);
      -- The planner's statistics follow the new rows (a refresh does not update them).
      EXECUTE format('ANALYZE public.%I', view_name);
    END
    $$`);
}
