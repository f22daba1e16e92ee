import { hashApiKey } from '@tcg/domain';
import { DataSource } from 'typeorm';
import {
  createLoginRoles,
  roleDataSource,
  tinyCatalogue,
  useTestDatabase,
  workerDatabaseUrl,
} from '../../testing';
import type { DatabaseRole } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { DatabaseRoles1764760000000 } from './1764760000000-database-roles';
import { PriceIngestRepository } from '../prices';
import { TypeOrmCatalogueRepository } from '../reads';
import { QuotaCounterRepository, TypeOrmApiKeyRepository } from '../keys';
import { refreshSummaries } from '../summaries';

const WRITES = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'];

/** PostgreSQL's refusal for a missing privilege. */
const refused = expect.objectContaining({ code: '42501' });

describe('database roles (DatabaseRoles migration)', () => {
  let admin: DataSource;
  let roles: Awaited<ReturnType<typeof createLoginRoles>>;
  const as = {} as Record<DatabaseRole, DataSource>;

  /** Every table and materialized view of the schema. */
  const tables = async (): Promise<string[]> =>
    (
      (await admin.query(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'm', 'p') ORDER BY 1`,
      )) as { name: string }[]
    ).map((r) => r.name);

  /** The tables on which `role` (a login role) holds `privilege`. */
  const holding = async (role: DatabaseRole, privilege: string): Promise<string[]> => {
    const [{ user }] = (await as[role].query('SELECT current_user AS user')) as { user: string }[];
    const names = await tables();
    const rows = (await admin.query(
      `SELECT t AS name FROM unnest($1::text[]) AS t WHERE has_table_privilege($2, t, $3)`,
      [names, user, privilege],
    )) as { name: string }[];
    return rows.map((r) => r.name);
  };

  useTestDatabase((opened) => (admin = opened), {
    truncate: 'once',
    beforeClose: async () => {
      for (const ds of Object.values(as)) await ds.destroy();
      await roles.drop();
    },
  });
  beforeAll(async () => {
    roles = await createLoginRoles(admin, workerDatabaseUrl());
    for (const [role, url] of Object.entries(roles.urls))
      as[role as DatabaseRole] = await roleDataSource(url);
  });

  it('runs again over roles and grants that exist already (roles are the cluster’s: other databases share them)', async () => {
    // In a transaction rolled back after: this old migration's up also defines tcg_refresh_summary
    // as it was then, which a later migration replaced, and this worker's later suites need the
    // database as migrated.
    const runner = admin.createQueryRunner();
    await runner.startTransaction();
    try {
      await new DatabaseRoles1764760000000().up(runner);
      const [{ granted }] = (await runner.query(
        `SELECT has_table_privilege('tcg_gateway', 'api_keys', 'SELECT') AS granted`,
      )) as { granted: boolean }[];
      expect(granted).toBe(true);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('leaves no table unconsidered: each is readable by some role', async () => {
    const granted = new Set<string>();
    for (const role of Object.keys(as) as DatabaseRole[])
      for (const table of await holding(role, 'SELECT')) granted.add(table);
    expect((await tables()).filter((t) => !granted.has(t))).toEqual([]);
  });

  it('lets an importer write the catalogue and prices and refresh the summaries', async () => {
    const catalogue = tinyCatalogue();
    await writeCatalogue(as.tcg_importer, catalogue);
    const variant = catalogue.variants[0]!;
    await new PriceIngestRepository(as.tcg_importer).ingestSeries([
      {
        region: 'NA',
        source: 'simulated',
        variantUuid: variant.uuid,
        t: [1_700_000_000_000, 1_700_086_400_000],
        p: [1000, 1100],
      },
    ]);
    await refreshSummaries(as.tcg_importer);
    const games = await new TypeOrmCatalogueRepository(as.tcg_importer).listGameSummaries();
    expect(games).toHaveLength(1);
    await expect(as.tcg_importer.query('SELECT * FROM api_keys')).rejects.toEqual(refused);
    await expect(as.tcg_importer.query('SELECT * FROM quota_counters')).rejects.toEqual(refused);
  });

  it('lets the services read the catalogue, and write nothing but bulk snapshots', async () => {
    const reads = new TypeOrmCatalogueRepository(as.tcg_reader);
    expect(await reads.listGameSummaries()).toHaveLength(1);
    // The bulk worker also prunes the change log of price_series its history files are past, and
    // the worker the card change log (leaving a mark: INSERT).
    const writable: Record<(typeof WRITES)[number], string[]> = {
      INSERT: ['bulk_chunks', 'bulk_snapshots', 'card_changes'],
      UPDATE: ['bulk_chunks', 'bulk_snapshots'],
      DELETE: ['bulk_chunks', 'bulk_snapshots', 'card_changes', 'price_series_changes'],
      TRUNCATE: [],
    };
    for (const privilege of WRITES)
      expect({ privilege, tables: await holding('tcg_reader', privilege) }).toEqual({
        privilege,
        tables: writable[privilege],
      });
    await expect(as.tcg_reader.query("UPDATE cards SET name = 'x'")).rejects.toEqual(refused);
    await expect(as.tcg_reader.query('DELETE FROM price_series')).rejects.toEqual(refused);
    await expect(as.tcg_reader.query('SELECT * FROM api_keys')).rejects.toEqual(refused);
    await expect(as.tcg_reader.query('SELECT * FROM quota_counters')).rejects.toEqual(refused);
    await expect(as.tcg_reader.query("SELECT tcg_refresh_summary('card_values')")).rejects.toEqual(refused);
  });

  it("keeps the alerts (their webhook secrets) to api-v1's role: api-v2 and the replicas' tcg_reader see none", async () => {
    await expect(as.tcg_reader.query('SELECT secret FROM alerts LIMIT 1')).rejects.toEqual(refused);
    await expect(as.tcg_reader.query('SELECT * FROM alert_events LIMIT 1')).rejects.toEqual(refused);
    expect(await holding('tcg_reader', 'SELECT')).not.toContain('alerts');
    // api-v1: the catalogue as a reader, its alerts, and of the keys only whether one is revoked and its plan.
    expect(await new TypeOrmCatalogueRepository(as.tcg_api_v1).listGameSummaries()).toHaveLength(1);
    for (const privilege of ['SELECT', 'INSERT', 'UPDATE', 'DELETE'])
      expect(await holding('tcg_api_v1', privilege)).toEqual(
        expect.arrayContaining(['alert_attempts', 'alert_events', 'alerts']),
      );
    expect(await as.tcg_api_v1.query('SELECT id, plan, revoked_at FROM api_keys LIMIT 1')).toBeDefined();
    await expect(as.tcg_api_v1.query('SELECT key_hash FROM api_keys LIMIT 1')).rejects.toEqual(refused);
    await expect(as.tcg_api_v1.query('TRUNCATE alerts')).rejects.toEqual(refused);
  });

  it('lets the gateway read keys and count quotas, and nothing of the catalogue', async () => {
    const { key, record } = await new TypeOrmApiKeyRepository(admin).create('starter', 'roles');
    const keys = new TypeOrmApiKeyRepository(as.tcg_gateway);
    expect(await keys.findActiveByHash(hashApiKey(key))).toMatchObject({
      id: record.id,
    });
    const expiresAt = new Date(Date.now() + 60_000);
    const quota = await new QuotaCounterRepository(as.tcg_gateway).consume(
      record.id,
      1,
      [{ id: 'm', limit: 10, expiresAt }],
      new Date(),
    );
    expect(quota).toEqual({ admitted: true, used: [1] });
    for (const table of ['cards', 'variant_prices', 'price_series', 'bulk_chunks'])
      await expect(as.tcg_gateway.query(`SELECT * FROM ${table} LIMIT 1`)).rejects.toEqual(refused);
    await expect(keys.create('enterprise', 'mine')).rejects.toEqual(refused);
    await expect(as.tcg_gateway.query("UPDATE api_keys SET plan = 'enterprise'")).rejects.toEqual(refused);
    expect(await holding('tcg_gateway', 'UPDATE')).toEqual(['quota_counters', 'quota_reconciliations']);
  });
});
