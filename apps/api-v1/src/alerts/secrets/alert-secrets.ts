import { Logger } from '@nestjs/common';
import { isAbsolute, join, resolve } from 'node:path';
import type { Environment } from '../../config/environment';
import { localSecretKey, parseSecretKey, parseSecretKeys, SecretBox } from './secret-box';

/**
 * The box api-v1 seals and opens webhook secrets with: ALERT_SECRET_KEY (and ALERT_SECRET_OLD_KEYS
 * while rotating); without it, a local key under TCG_DATA_DIR (`.data`) unless NODE_ENV is
 * production, where a key made on one instance would leave the others unable to sign.
 */
export function alertSecretBox(env: Environment): SecretBox {
  const old = parseSecretKeys(env.ALERT_SECRET_OLD_KEYS, 'ALERT_SECRET_OLD_KEYS');
  if (env.ALERT_SECRET_KEY !== undefined && env.ALERT_SECRET_KEY.trim() !== '')
    return new SecretBox(parseSecretKey(env.ALERT_SECRET_KEY.trim(), 'ALERT_SECRET_KEY'), old);
  if (env.NODE_ENV === 'production')
    throw new Error(
      'Invalid configuration: ALERT_SECRET_KEY is required in production (k1:$(openssl rand -base64 32))',
    );
  const dataDir =
    env.TCG_DATA_DIR !== undefined && isAbsolute(env.TCG_DATA_DIR)
      ? resolve(env.TCG_DATA_DIR)
      : join(process.cwd(), '.data');
  const key = localSecretKey(dataDir);
  new Logger('AlertSecrets').warn({
    msg: 'ALERT_SECRET_KEY is not set: webhook secrets are sealed with a local key',
    file: join(dataDir, 'alert-secret.key'),
    keyId: key.id,
  });
  return new SecretBox(key, old);
}
