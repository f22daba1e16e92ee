import { apiKeyShape, isPlanName, PlanName } from '@tcg/domain';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataDirOf } from '../common/database';
import { writeFileAtomically } from '../common/files';
import { log } from '../common/log';
import { keySignerOf } from '../keys/key-signer';

/**
 * The demo key: DEMO_API_KEY when given, else one generated on first start and kept in
 * `<data dir>/demo-api-key` (`.data`, git-ignored, by default) so it survives restarts. Stored hashed like any key.
 * Created once: a demo key revoked with `npm run keys -- revoke` stays revoked (`revoked` says so).
 * Generated keys are checked under API_KEY_SECRET (unset: the gateway's public default); a kept
 * one whose check no longer verifies (API_KEY_SECRET set or changed since) is replaced, since the
 * gateway would refuse it. A kept key of the legacy shape (from before issue 37) is kept.
 */
export async function ensureDemoKey(
  ds: DataSource,
  env: NodeJS.ProcessEnv,
): Promise<{ key: string; plan: PlanName; revoked: boolean }> {
  const plan = env['DEMO_API_PLAN'] ?? 'starter';
  if (!isPlanName(plan))
    throw new Error(`DEMO_API_PLAN must be one of free, starter, professional, enterprise (got '${plan}')`);
  const { signer } = keySignerOf(env);
  let key = env['DEMO_API_KEY'];
  if (!key) {
    const dataDir = dataDirOf(env);
    const file = join(dataDir, 'demo-api-key');
    if (existsSync(file)) key = (await readFile(file, 'utf8')).trim();
    if (!key || (apiKeyShape(key) === 'checked' && !signer.verify(key))) {
      if (key) log('warn', 'the kept demo key is not checked under API_KEY_SECRET: a new one is made');
      key = signer.generate();
      await mkdir(dataDir, { recursive: true });
      await writeFileAtomically(file, `${key}\n`, 0o600);
    }
  }
  const record = await new TypeOrmApiKeyRepository(ds, signer).ensure(key, plan, 'demo');
  return { key, plan, revoked: record.revokedAt !== null };
}
