import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `api_keys_active_legacy_idx`: the digests of the active legacy keys (Hardening III), the set the
 * gateway reads at boot, before it is ready, and every LEGACY_KEYS_REFRESH_MS. The legacy keys are
 * a fixed set while the keys issued since keep growing; without it the read scans the whole table.
 * `key_hash` is the indexed column so the read is an index-only scan. Small (one entry per active
 * legacy key), so built in the migration's transaction rather than concurrently.
 */
export class ActiveLegacyKeysIndex1765790000000 implements MigrationInterface {
  name = 'ActiveLegacyKeysIndex1765790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX api_keys_active_legacy_idx ON api_keys (key_hash) WHERE legacy AND revoked_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_keys_active_legacy_idx`);
  }
}
