import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource } from '../lib/db/data-source';
import { DATABASE_ROLES } from '../lib/migrations/1764760000000-database-roles';
import { API_V1_ROLE } from '../lib/migrations/1765710000001-alerts-role';

/** Every group role of the migrations: DatabaseRoles' three, and api-v1's own (AlertsRole). */
const GROUP_ROLES = [...DATABASE_ROLES, API_V1_ROLE] as const;

export type DatabaseRole = (typeof GROUP_ROLES)[number];

/**
 * Login roles in each group role of the DatabaseRoles migration, as an operator creates them
 * (docs/deploying.md, "PostgreSQL roles"), with a name of their own per call: roles belong to the
 * cluster, which other test processes share. `urls` connect to `databaseUrl` as each of them.
 */
export async function createLoginRoles(
  admin: DataSource,
  databaseUrl: string,
): Promise<{ urls: Record<DatabaseRole, string>; drop(): Promise<void> }> {
  const suffix = randomBytes(4).toString('hex');
  const names = Object.fromEntries(GROUP_ROLES.map((g) => [g, `${g}_test_${suffix}`])) as Record<
    DatabaseRole,
    string
  >;
  const password = randomBytes(12).toString('hex');
  for (const group of GROUP_ROLES)
    await admin.query(`CREATE ROLE ${names[group]} LOGIN PASSWORD '${password}' IN ROLE ${group}`);
  const urls = Object.fromEntries(
    GROUP_ROLES.map((group) => {
      const url = new URL(databaseUrl);
      url.username = names[group];
      url.password = password;
      return [group, url.toString()];
    }),
  ) as Record<DatabaseRole, string>;
  return {
    urls,
    drop: async () => {
      for (const name of Object.values(names)) await admin.query(`DROP ROLE IF EXISTS ${name}`);
    },
  };
}

/** A data source connected as one of `createLoginRoles`' roles. */
export function roleDataSource(url: string): Promise<DataSource> {
  return createDataSource({ url, poolSize: 2, applicationName: 'role-test' }).initialize();
}
