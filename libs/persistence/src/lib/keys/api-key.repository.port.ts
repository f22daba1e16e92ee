import type { ApiKeyRecord, PlanName } from '@tcg/domain';

/**
 * The port the gateway's access check and the keys CLI use, beside its one implementation
 * (`TypeOrmApiKeyRepository`). API keys are stored hashed; the clear key exists only in the value
 * `create` returns.
 */
export interface ApiKeyRepository {
  create(plan: PlanName, label: string, clearKey?: string): Promise<{ key: string; record: ApiKeyRecord }>;
  /** The key whose digest (`hashApiKey`) this is, unless revoked: the gateway's cache is keyed by the digest. */
  findActiveByHash(keyHash: Buffer): Promise<ApiKeyRecord | null>;
  /**
   * `findActiveByHash` of each digest, in their order, in one statement: the gateway's refresh of
   * the keys it holds. A key whose row this build cannot read (a plan it does not know) is an
   * `Error` in its place, failing that key alone.
   */
  findActiveByHashes(keyHashes: readonly Buffer[]): Promise<(ApiKeyRecord | null | Error)[]>;
  /** Creates the key with this clear value unless it exists; sets its plan either way (a revoked key stays revoked). */
  ensure(clearKey: string, plan: PlanName, label: string): Promise<ApiKeyRecord>;
  /**
   * The digests of the keys still active that were issued without a check (`legacy` shape): the
   * gateway holds them in memory, so an unknown key of that shape is refused without a lookup.
   */
  activeLegacyKeyHashes(): Promise<Buffer[]>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(idOrPrefix: string): Promise<boolean>;
  changePlan(idOrPrefix: string, plan: PlanName): Promise<boolean>;
}

/** The `ApiKeyRepository` bound to the primary: inject with `@Inject(API_KEYS)`. */
export const API_KEYS = Symbol('ApiKeyRepository');
