import { PlanName } from '@tcg/domain';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { testDataSource } from '@tcg/persistence/testing';

/** Creates API keys in the test database for end-to-end tests (a fresh key per test keeps quotas apart). */
export async function withKeys<T>(fn: (keys: TypeOrmApiKeyRepository) => Promise<T>): Promise<T> {
  const ds = await testDataSource();
  try {
    return await fn(new TypeOrmApiKeyRepository(ds));
  } finally {
    await ds.destroy();
  }
}

export async function newKey(plan: PlanName): Promise<string> {
  return withKeys(async (keys) => (await keys.create(plan, 'e2e')).key);
}
