import { UNSET_API_KEY_SECRET } from '@tcg/domain';
import { apiKeyPreviousSecrets, validateEnvironment } from './environment';

describe('api-gateway configuration', () => {
  const required = { DATABASE_URL: 'postgres://x/y', INTERNAL_TOKEN: 'x'.repeat(32) };

  it('needs a database and the internal token, and defaults to the local services', () => {
    expect(validateEnvironment(required)).toMatchObject({
      PORT: 8080,
      API_V1_URL: 'http://127.0.0.1:8081',
      API_V2_URL: 'http://127.0.0.1:8082',
      UPSTREAM_TIMEOUT_MS: 10_000,
      KEY_CACHE_STALE_MS: 300_000,
      KEY_LOOKUP_TIMEOUT_MS: 1_000,
      REDIS_COMMAND_TIMEOUT_MS: 1_000,
      REDIS_CONNECT_TIMEOUT_MS: 1_000,
      QUOTA_DB_TIMEOUT_MS: 1_000,
    });
    expect(validateEnvironment(required).EXPLORER_API_KEY).toBeUndefined();
    expect(validateEnvironment({ ...required, EXPLORER_API_KEY: 'tcg_abc' }).EXPLORER_API_KEY).toBe(
      'tcg_abc',
    );
  });

  it('takes trusted proxies as addresses and CIDR ranges, IPv4 and IPv6', () => {
    const env = validateEnvironment({ ...required, TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.7 ,fd00::/8' });
    expect(env.TRUSTED_PROXIES).toBe(' 10.0.0.0/8, 192.0.2.7 ,fd00::/8');
    expect(validateEnvironment(required)).toMatchObject({
      TRUSTED_PROXIES: '',
      TRUSTED_PROXY_HEADER: 'x-forwarded-for',
    });
  });

  it('takes a Redis server, or a cluster by seed list or redis+cluster:// URL', () => {
    for (const redis of [
      { REDIS_URL: 'redis://127.0.0.1:6379/2' },
      { REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2:7000' },
      { REDIS_URL: 'redis+cluster://10.0.0.1:7000,10.0.0.2:7000' },
    ])
      expect(validateEnvironment({ ...required, ...redis })).toMatchObject(redis);
  });

  it.each([
    [{ API_V1_URL: 'not a url' }, 'API_V1_URL'],
    [{ API_V2_URL: 'ftp://host' }, 'API_V2_URL'],
    [{ UPSTREAM_TIMEOUT_MS: '5' }, 'UPSTREAM_TIMEOUT_MS'],
    [{ INTERNAL_TOKEN: 'short' }, 'INTERNAL_TOKEN'],
    [{ KEY_CACHE_TTL_MS: '-1' }, 'KEY_CACHE_TTL_MS'],
    [{ KEY_LOOKUP_TIMEOUT_MS: '0' }, 'KEY_LOOKUP_TIMEOUT_MS'],
    [{ REDIS_COMMAND_TIMEOUT_MS: 'soon' }, 'REDIS_COMMAND_TIMEOUT_MS'],
    [{ QUOTA_DB_TIMEOUT_MS: '99999999' }, 'QUOTA_DB_TIMEOUT_MS'],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1' }, 'REDIS_CLUSTER_NODES'],
    [{ REDIS_URL: 'redis+cluster://a:1/1' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://a:1', REDIS_CLUSTER_NODES: 'b:2' }, 'REDIS_CLUSTER_NODES'],
    [{ EXPLORER_API_KEY: 'two words' }, 'EXPLORER_API_KEY'],
    [{ EXPLORER_API_KEY: 'k'.repeat(257) }, 'EXPLORER_API_KEY'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8,ingress.local' }, 'TRUSTED_PROXIES'],
    [{ TRUSTED_PROXIES: '10.0.0.0/33' }, 'TRUSTED_PROXIES'],
    [{ TRUSTED_PROXIES: 'fd00::/129' }, 'TRUSTED_PROXIES'],
    [{ TRUSTED_PROXY_HEADER: 'x-real-ip' }, 'TRUSTED_PROXY_HEADER'],
  ])('refuses to boot on %o, naming %s', (raw, variable) => {
    expect(() => validateEnvironment({ ...required, ...raw })).toThrow(
      new RegExp(`Invalid configuration: .*${variable}`),
    );
  });

  it('takes an API key secret of at least 16 characters, and earlier ones likewise', () => {
    expect(validateEnvironment(required)).toMatchObject({
      API_KEY_PREVIOUS_SECRETS: '',
      LEGACY_KEYS_REFRESH_MS: 60_000,
      LEGACY_KEYS_LOAD_TIMEOUT_MS: 10_000,
    });
    expect(validateEnvironment(required).API_KEY_SECRET).toBeUndefined();
    const env = validateEnvironment({
      ...required,
      API_KEY_SECRET: 's'.repeat(16),
      API_KEY_PREVIOUS_SECRETS: ` ${'a'.repeat(16)}, ${'b'.repeat(20)} `,
    });
    expect(apiKeyPreviousSecrets(env)).toEqual(['a'.repeat(16), 'b'.repeat(20)]);
    expect(() => validateEnvironment({ ...required, API_KEY_SECRET: 'short' })).toThrow(/API_KEY_SECRET/);
    expect(() => validateEnvironment({ ...required, API_KEY_PREVIOUS_SECRETS: 'short' })).toThrow(
      /API_KEY_PREVIOUS_SECRETS/,
    );
  });

  it('refuses to boot in production without a secret of its own', () => {
    const production = { ...required, NODE_ENV: 'production' };
    expect(() => validateEnvironment(production)).toThrow(/API_KEY_SECRET is required in production/);
    expect(() => validateEnvironment({ ...production, API_KEY_SECRET: UNSET_API_KEY_SECRET })).toThrow(
      /public default secret is refused/,
    );
    expect(() =>
      validateEnvironment({
        ...production,
        API_KEY_SECRET: 's'.repeat(16),
        API_KEY_PREVIOUS_SECRETS: UNSET_API_KEY_SECRET,
      }),
    ).toThrow(/public default secret is refused/);
    expect(validateEnvironment({ ...production, API_KEY_SECRET: 's'.repeat(16) }).API_KEY_SECRET).toBe(
      's'.repeat(16),
    );
  });
});
