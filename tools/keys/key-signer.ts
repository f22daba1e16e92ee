import { ApiKeySigner, MIN_API_KEY_SECRET_LENGTH } from '@tcg/domain';

/**
 * The signer keys are issued with: API_KEY_SECRET, as the gateway reads it (unset: the public
 * default the gateway also uses then). A key issued under another secret than the gateway's is
 * refused by it at once, so the tools must be given the same value.
 */
export function keySignerOf(env: NodeJS.ProcessEnv): { signer: ApiKeySigner; secretSet: boolean } {
  const secret = env['API_KEY_SECRET'] || undefined;
  if (secret !== undefined && secret.length < MIN_API_KEY_SECRET_LENGTH)
    throw new Error(`API_KEY_SECRET must be at least ${MIN_API_KEY_SECRET_LENGTH} characters`);
  return { signer: new ApiKeySigner(secret), secretSet: secret !== undefined };
}
