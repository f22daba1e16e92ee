import { PlanName } from '@tcg/domain';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { withTestDatabase } from '@tcg/persistence/testing';

/** Creates API keys in the test database for end-to-end tests (a fresh key per test keeps quotas apart). */
export async function withKeys<T>(fn: (keys: TypeOrmApiKeyRepository) => Promise<T>): Promise<T> {
  return withTestDatabase((ds) => fn(new TypeOrmApiKeyRepository(ds)));
}

export async function newKey(plan: PlanName): Promise<string> {
  return withKeys(async (keys) => (await keys.create(plan, 'e2e')).key);
}
