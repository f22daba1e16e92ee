import {
  ApiKeyRecord,
  ApiKeyRepository,
  ApiKeyShape,
  ApiKeySigner,
  apiKeyShape,
  hashApiKey,
  isPlanName,
  isUuid,
  PlanName,
} from '@tcg/domain';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../entities';

/** The gateway's read of the legacy keys, at boot and every minute: answered by `api_keys_active_legacy_idx`. */
export const ACTIVE_LEGACY_KEY_HASHES = 'SELECT key_hash FROM api_keys WHERE legacy AND revoked_at IS NULL';

function toRecord(e: ApiKeyEntity): ApiKeyRecord {
  if (!isPlanName(e.plan)) throw new Error(`api key ${e.id} has unknown plan ${e.plan}`);
  return {
    id: e.id,
    prefix: e.keyPrefix,
    plan: e.plan,
    label: e.label,
    createdAt: e.createdAt,
    revokedAt: e.revokedAt,
  };
}

export class TypeOrmApiKeyRepository implements ApiKeyRepository {
  /**
   * `signer`: makes the check of the keys `create` generates; it must hold the gateway's
   * API_KEY_SECRET (without one, the gateway's default when none is configured).
   */
  constructor(
    private readonly ds: DataSource,
    private readonly signer = new ApiKeySigner(undefined),
  ) {}

  private get repo() {
    return this.ds.getRepository(ApiKeyEntity);
  }

  async create(
    plan: PlanName,
    label: string,
    clearKey = this.signer.generate(),
  ): Promise<{ key: string; record: ApiKeyRecord }> {
    const shape = this.assertWellFormedApiKey(clearKey);
    const entity = this.repo.create({
      id: randomUUID(),
      keyHash: hashApiKey(clearKey),
      keyPrefix: clearKey.slice(0, 12),
      plan,
      label,
      createdAt: new Date(),
      revokedAt: null,
      legacy: shape === 'legacy',
    });
    await this.repo.insert(entity);
    return { key: clearKey, record: toRecord(entity) };
  }

  async findActiveByHash(keyHash: Buffer): Promise<ApiKeyRecord | null> {
    const row = await this.repo.findOneBy({ keyHash });
    return row && !row.revokedAt ? toRecord(row) : null;
  }

  /**
   * Creates the key with this clear value unless it exists; sets its plan either way. A revoked
   * key stays revoked (the record says so): revoking is the owner's decision, and a restart that
   * undid it would hand the key back to whoever it leaked to.
   */
  async ensure(clearKey: string, plan: PlanName, label: string): Promise<ApiKeyRecord> {
    this.assertWellFormedApiKey(clearKey);
    const row = await this.repo.findOneBy({ keyHash: hashApiKey(clearKey) });
    if (!row) return (await this.create(plan, label, clearKey)).record;
    await this.repo.update({ id: row.id }, { plan });
    return toRecord({ ...row, plan });
  }

  async activeLegacyKeyHashes(): Promise<Buffer[]> {
    const rows: { key_hash: Buffer }[] = await this.ds.query(ACTIVE_LEGACY_KEY_HASHES);
    return rows.map((r) => r.key_hash);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.repo.find({ order: { createdAt: 'ASC' } })).map(toRecord);
  }

  /** Revokes the key and, in the same transaction, disables its price alerts: nobody could delete them now. */
  async revoke(idOrPrefix: string): Promise<boolean> {
    const id = await this.resolve(idOrPrefix);
    if (id === undefined) return false;
    return this.repo.manager.transaction(async (m) => {
      const revoked = ((await m.update(ApiKeyEntity, { id }, { revokedAt: new Date() })).affected ?? 0) > 0;
      await m.query(
        `UPDATE alerts SET disabled_at = now(), disabled_reason = 'key revoked' WHERE key_id = $1 AND disabled_at IS NULL`,
        [id],
      );
      return revoked;
    });
  }

  async changePlan(idOrPrefix: string, plan: PlanName): Promise<boolean> {
    const id = await this.resolve(idOrPrefix);
    return id !== undefined && ((await this.repo.update({ id }, { plan })).affected ?? 0) > 0;
  }

  /** The one key an id or displayed prefix names; an ambiguous prefix is an error, not a mass update. */
  private async resolve(idOrPrefix: string): Promise<string | undefined> {
    const rows = await this.repo.find({ where: this.match(idOrPrefix), select: { id: true }, take: 2 });
    if (rows.length > 1) throw new Error(`'${idOrPrefix}' matches several keys; use the key's id`);
    return rows[0]?.id;
  }

  /**
   * A key of another shape could never be presented: the gateway refuses it before any lookup. A
   * `legacy` one is accepted (a DEMO_API_KEY chosen before issue 37) and marked so, which puts it in
   * the gateway's in-memory set at its next refresh.
   */
  private assertWellFormedApiKey(clearKey: string): ApiKeyShape {
    const shape = apiKeyShape(clearKey);
    if (!shape)
      throw new Error(
        `an API key must be 'tcg_' followed by 43 (or, issued before, 32) letters or digits (got ${clearKey.length} characters)`,
      );
    return shape;
  }

  private match(idOrPrefix: string): { id: string } | { keyPrefix: string } {
    return isUuid(idOrPrefix) ? { id: idOrPrefix } : { keyPrefix: idOrPrefix };
  }
}
