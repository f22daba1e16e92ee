import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `api_keys.legacy`: the keys issued before keys carried a check (issue 37). Every key existing
 * when this runs is one; keys issued since are not. The gateway loads the digests of the active
 * legacy keys at boot (and again every LEGACY_KEYS_REFRESH_MS), so a key of the old shape that is
 * not among them is refused without a lookup, and the keys already issued keep working unchanged.
 */
export class LegacyApiKeys1765720000000 implements MigrationInterface {
  name = 'LegacyApiKeys1765720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN legacy boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE api_keys SET legacy = true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN legacy`);
  }
}
