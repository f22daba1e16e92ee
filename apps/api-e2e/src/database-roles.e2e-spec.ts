import { DataSource } from 'typeorm';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { createLoginRoles, useTestDatabase, workerDatabaseUrl } from '@tcg/persistence/testing';
import { dragon, knight, knightNm, nm, seedCatalogue, series, T_NOW } from './fixtures';
import { fetchWithKey } from './http';
import { importPrices } from './import-prices';
import { startStack, Stack } from './stack';

/**
 * Each app runs on a login role of its own group (the DatabaseRoles migration, as docs/deploying.md,
 * "PostgreSQL roles", has the operator create them): the gateway in tcg_gateway, the
 * services in tcg_reader (api-v1 in tcg_api_v1, which adds its alerts), the importer in tcg_importer. What users do through the stack works,
 * so the grants suffice: keys, quotas counted in PostgreSQL (no Redis), v1 and v2 reads, api-v1's
 * bulk snapshots, an import.
 */
describe('every app on its own PostgreSQL role', () => {
  let admin: DataSource;
  let roles: Awaited<ReturnType<typeof createLoginRoles>>;
  let stack: Stack;
  let key: string;
  let keyId: string;

  const get = (path: string) => fetchWithKey(`${stack.gatewayUrl}${path}`, key);

  // The roles go once the stack that logs in as them has stopped; seedCatalogue empties the database.
  useTestDatabase((opened) => (admin = opened), {
    truncate: 'never',
    beforeClose: async () => {
      await stack?.close();
      await roles?.drop();
    },
  });
  beforeAll(async () => {
    await seedCatalogue([dragon, knight], [nm, knightNm], [{ variantUuid: nm.uuid, ...series(1000) }]);
    roles = await createLoginRoles(admin, workerDatabaseUrl());
    // The key CLI runs as the owner: no app's role may create keys.
    ({
      key,
      record: { id: keyId },
    } = await new TypeOrmApiKeyRepository(admin).create('starter', 'roles'));
    stack = await startStack({
      gatewayEnv: { DATABASE_URL: roles.urls.tcg_gateway },
      v1Env: { DATABASE_URL: roles.urls.tcg_api_v1, BULK_GENERATION: 'on', BULK_SETTLE_MS: '300' },
      v2Env: { DATABASE_URL: roles.urls.tcg_reader },
      logs: true,
    });
  }, 60_000);

  it('imports prices as a tcg_importer member', async () => {
    expect(
      await importPrices(
        [{ variant_id: knightNm.uuid, region: 'NA', time: T_NOW, price: '7.50', currency: 'USD' }],
        roles.urls.tcg_importer,
      ),
    ).toBe(0);
  });

  it('serves a v1 search and a v2 card through a gateway that reads keys and counts quotas in PostgreSQL', async () => {
    const v1 = await get('/v1/cards?q=Dragon');
    expect(v1.status).toBe(200);
    expect(((await v1.json()) as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([dragon.id]);
    const v2 = await get(`/v2/cards/${dragon.id}`);
    expect(v2.status).toBe(200);
    const [{ used }] = (await admin.query(
      'SELECT max(used)::int AS used FROM quota_counters WHERE key_id = $1',
      [keyId],
    )) as { used: number }[];
    expect(used).toBeGreaterThanOrEqual(2);
  });

  it('lets api-v1 write its bulk snapshots', async () => {
    let listed: unknown[] = [];
    for (let i = 0; i < 100 && listed.length < 2; i++) {
      listed = ((await (await get('/v1/bulk')).json()) as { data: unknown[] }).data;
      if (listed.length < 2) await new Promise((r) => setTimeout(r, 200));
    }
    expect(listed).toHaveLength(2);
  });

  it('logs no refused privilege in any app', () => {
    for (const service of ['gateway', 'v1', 'v2'] as const)
      expect({ service, log: stack.output(service) }).toEqual({
        service,
        log: expect.not.stringMatching(/permission denied|42501/),
      });
  });
});
