import {
  ApiKeyRecord,
  ApiKeyShape,
  ApiKeySigner,
  apiKeyShape,
  hashApiKey,
  isPlanName,
  isUuid,
  PlanName,
} from '@tcg/domain';
import { ApiKeyRepository } from './api-key.repository.port';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { db } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { execute, rowsOf } from '../sql/run';
import { inTransaction } from '../db/transaction';

const KEY = rowSchema('api key', {
  id: 'string',
  key_prefix: 'string',
  plan: 'string',
  label: 'string',
  created_at: 'date',
  revoked_at: 'date?',
});
type KeyRow = RowOf<typeof KEY>;

const KEY_WITH_HASH = rowSchema('api key with its hash', { ...KEY.columns, key_hash: 'bytes' });
const KEY_HASH = rowSchema('legacy key hashes', { key_hash: 'bytes' });
const KEY_ID = rowSchema('api key id', { id: 'string' });

/** A key as stored, but for its hash. */
const KEY_COLUMNS = ['id', 'key_prefix', 'plan', 'label', 'created_at', 'revoked_at'] as const;

/** The gateway's read of the legacy keys, at boot and every minute: answered by `api_keys_active_legacy_idx`. */
export const ACTIVE_LEGACY_KEY_HASHES = db
  .selectFrom('api_keys')
  .select('key_hash')
  .where(sql.ref<boolean>('legacy'))
  .where('revoked_at', 'is', null);

export function insertApiKeyStatement(key: {
  id: string;
  keyHash: Buffer;
  keyPrefix: string;
  plan: PlanName;
  label: string;
  createdAt: Date;
  legacy: boolean;
}) {
  return db.insertInto('api_keys').values({
    id: key.id,
    key_hash: key.keyHash,
    key_prefix: key.keyPrefix,
    plan: key.plan,
    label: key.label,
    created_at: key.createdAt,
    revoked_at: null,
    legacy: key.legacy,
  });
}

/** The key with this hash, revoked or not (`key_hash` is unique). */
export function apiKeyByHashStatement(keyHash: Buffer) {
  return db.selectFrom('api_keys').select(KEY_COLUMNS).where('key_hash', '=', keyHash).limit(sql.lit(1));
}

/**
 * The keys with these hashes, revoked or not: the gateway's refresh of the keys it holds, one
 * statement for many (`key_hash`'s unique index, probed once per hash).
 */
export function apiKeysByHashesStatement(keyHashes: readonly Buffer[]) {
  return db
    .selectFrom('api_keys')
    .select([...KEY_COLUMNS, 'key_hash'])
    .where(sql<boolean>`key_hash = any(${keyHashes}::bytea[])`);
}

export function apiKeysStatement() {
  return db.selectFrom('api_keys').select(KEY_COLUMNS).orderBy('created_at', 'asc');
}

/** The ids of the keys an id or a displayed prefix names: two tell an ambiguous prefix. */
export function apiKeyIdsStatement(idOrPrefix: string) {
  return db
    .selectFrom('api_keys')
    .select('id')
    .where(isUuid(idOrPrefix) ? 'id' : 'key_prefix', '=', idOrPrefix)
    .limit(sql.lit(2));
}

export function revokeApiKeyStatement(id: string, at: Date) {
  return db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id);
}

/** Disables the key's enabled price alerts, which nobody could delete once the key is revoked. */
export function disableAlertsOfRevokedKeyStatement(keyId: string) {
  return db
    .updateTable('alerts')
    .set({ disabled_at: sql`now()`, disabled_reason: sql.lit('key revoked') })
    .where('key_id', '=', keyId)
    .where('disabled_at', 'is', null);
}

export function changeApiKeyPlanStatement(id: string, plan: PlanName) {
  return db.updateTable('api_keys').set({ plan }).where('id', '=', id);
}

function toRecord(r: KeyRow): ApiKeyRecord {
  if (!isPlanName(r.plan)) throw new Error(`api key ${r.id} has unknown plan ${r.plan}`);
  return {
    id: r.id,
    prefix: r.key_prefix,
    plan: r.plan,
    label: r.label,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  };
}

/** The key of a row, unless there is none or it is revoked (`findActiveByHash`). */
const activeRecord = (r: KeyRow | undefined): ApiKeyRecord | null =>
  r && !r.revoked_at ? toRecord(r) : null;

export class TypeOrmApiKeyRepository implements ApiKeyRepository {
  /**
   * `signer`: makes the check of the keys `create` generates; it must hold the gateway's
   * API_KEY_SECRET (without one, the gateway's default when none is configured).
   */
  constructor(
    private readonly ds: DataSource,
    private readonly signer = new ApiKeySigner(undefined),
  ) {}

  async create(
    plan: PlanName,
    label: string,
    clearKey = this.signer.generate(),
  ): Promise<{ key: string; record: ApiKeyRecord }> {
    const shape = this.assertWellFormedApiKey(clearKey);
    const record: ApiKeyRecord = {
      id: randomUUID(),
      prefix: clearKey.slice(0, 12),
      plan,
      label,
      createdAt: new Date(),
      revokedAt: null,
    };
    await execute(
      poolOf(this.ds),
      insertApiKeyStatement({
        id: record.id,
        keyHash: hashApiKey(clearKey),
        keyPrefix: record.prefix,
        plan,
        label,
        createdAt: record.createdAt,
        legacy: shape === 'legacy',
      }),
    );
    return { key: clearKey, record };
  }

  async findActiveByHash(keyHash: Buffer): Promise<ApiKeyRecord | null> {
    const [row] = await rowsOf(poolOf(this.ds), KEY, apiKeyByHashStatement(keyHash));
    return activeRecord(row);
  }

  async findActiveByHashes(keyHashes: readonly Buffer[]): Promise<(ApiKeyRecord | null | Error)[]> {
    if (keyHashes.length === 0) return [];
    const rows = await rowsOf(poolOf(this.ds), KEY_WITH_HASH, apiKeysByHashesStatement(keyHashes));
    const byHash = new Map(rows.map((row) => [row.key_hash.toString('hex'), row]));
    return keyHashes.map((hash) => {
      try {
        return activeRecord(byHash.get(hash.toString('hex')));
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    });
  }

  /**
   * Creates the key with this clear value unless it exists; sets its plan either way. A revoked
   * key stays revoked (the record says so): revoking is the owner's decision, and a restart that
   * undid it would hand the key back to whoever it leaked to.
   */
  async ensure(clearKey: string, plan: PlanName, label: string): Promise<ApiKeyRecord> {
    this.assertWellFormedApiKey(clearKey);
    const [row] = await rowsOf(poolOf(this.ds), KEY, apiKeyByHashStatement(hashApiKey(clearKey)));
    if (!row) return (await this.create(plan, label, clearKey)).record;
    await execute(poolOf(this.ds), changeApiKeyPlanStatement(row.id, plan));
    return toRecord({ ...row, plan });
  }

  async activeLegacyKeyHashes(): Promise<Buffer[]> {
    const rows = await rowsOf(poolOf(this.ds), KEY_HASH, ACTIVE_LEGACY_KEY_HASHES);
    return rows.map((r) => r.key_hash);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await rowsOf(poolOf(this.ds), KEY, apiKeysStatement())).map(toRecord);
  }

  /** Revokes the key and, in the same transaction, disables its price alerts: nobody could delete them now. */
  async revoke(idOrPrefix: string): Promise<boolean> {
    const id = await this.resolve(idOrPrefix);
    if (id === undefined) return false;
    return inTransaction(this.ds, async (client) => {
      const revoked = (await execute(client, revokeApiKeyStatement(id, new Date()))) > 0;
      await execute(client, disableAlertsOfRevokedKeyStatement(id));
      return revoked;
    });
  }

  async changePlan(idOrPrefix: string, plan: PlanName): Promise<boolean> {
    const id = await this.resolve(idOrPrefix);
    return id !== undefined && (await execute(poolOf(this.ds), changeApiKeyPlanStatement(id, plan))) > 0;
  }

  /** The one key an id or displayed prefix names; an ambiguous prefix is an error, not a mass update. */
  private async resolve(idOrPrefix: string): Promise<string | undefined> {
    const rows = await rowsOf(poolOf(this.ds), KEY_ID, apiKeyIdsStatement(idOrPrefix));
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
}
