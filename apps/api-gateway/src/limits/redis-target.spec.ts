import { parseRedisTarget, RedisConfigError, type RedisTarget } from './redis-target';

describe('parseRedisTarget', () => {
  it.each<[string, { REDIS_URL?: string; REDIS_CLUSTER_NODES?: string }, RedisTarget | undefined]>([
    ['neither', {}, undefined],
    ['both empty (.env.example)', { REDIS_URL: '', REDIS_CLUSTER_NODES: ' ' }, undefined],
    // Every REDIS_URL that is not a cluster's goes to ioredis untouched, as before.
    [
      'a server',
      { REDIS_URL: 'redis://127.0.0.1:6379' },
      { kind: 'standalone', url: 'redis://127.0.0.1:6379' },
    ],
    [
      'a server, database and credentials',
      { REDIS_URL: 'redis://u:p@redis:6379/3' },
      { kind: 'standalone', url: 'redis://u:p@redis:6379/3' },
    ],
    ['TLS', { REDIS_URL: 'rediss://redis:6380' }, { kind: 'standalone', url: 'rediss://redis:6380' }],
    ['a socket path', { REDIS_URL: '/run/redis.sock' }, { kind: 'standalone', url: '/run/redis.sock' }],
    [
      'one seed',
      { REDIS_CLUSTER_NODES: '10.0.0.1:7000' },
      { kind: 'cluster', seeds: [{ host: '10.0.0.1', port: 7000 }] },
    ],
    [
      'seeds with spaces, names and IPv6',
      { REDIS_CLUSTER_NODES: ' redis-0.redis.svc:6379 , [::1]:7001,localhost:7002' },
      {
        kind: 'cluster',
        seeds: [
          { host: 'redis-0.redis.svc', port: 6379 },
          { host: '::1', port: 7001 },
          { host: 'localhost', port: 7002 },
        ],
      },
    ],
    [
      'a cluster URL',
      { REDIS_URL: 'redis+cluster://127.0.0.1:7000,127.0.0.1:7001' },
      {
        kind: 'cluster',
        seeds: [
          { host: '127.0.0.1', port: 7000 },
          { host: '127.0.0.1', port: 7001 },
        ],
      },
    ],
    [
      'a cluster URL with credentials (percent-encoded) and database 0',
      { REDIS_URL: 'REDIS+CLUSTER://app:p%40ss@h1:7000/0' },
      { kind: 'cluster', seeds: [{ host: 'h1', port: 7000 }], username: 'app', password: 'p@ss' },
    ],
    [
      'a cluster URL with a password only',
      { REDIS_URL: 'redis+cluster://:secret@h1:7000/' },
      { kind: 'cluster', seeds: [{ host: 'h1', port: 7000 }], password: 'secret' },
    ],
  ])('%s', (_, env, expected) => {
    expect(parseRedisTarget(env)).toEqual(expected);
  });

  it.each<[string, { REDIS_URL?: string; REDIS_CLUSTER_NODES?: string }, string, RegExp]>([
    [
      'both set',
      { REDIS_URL: 'redis://a:1', REDIS_CLUSTER_NODES: 'b:2' },
      'REDIS_CLUSTER_NODES',
      /either REDIS_URL or REDIS_CLUSTER_NODES, not both/,
    ],
    ['no port', { REDIS_CLUSTER_NODES: '10.0.0.1' }, 'REDIS_CLUSTER_NODES', /entry 1 is not host:port/],
    ['port 0', { REDIS_CLUSTER_NODES: 'a:0' }, 'REDIS_CLUSTER_NODES', /entry 1 is not host:port/],
    ['port too high', { REDIS_CLUSTER_NODES: 'a:65536' }, 'REDIS_CLUSTER_NODES', /entry 1 is not host:port/],
    [
      'an empty entry',
      { REDIS_CLUSTER_NODES: 'a:1,,b:2' },
      'REDIS_CLUSTER_NODES',
      /entry 2 is not host:port/,
    ],
    [
      'a URL in the seed list',
      { REDIS_CLUSTER_NODES: 'redis://a:1' },
      'REDIS_CLUSTER_NODES',
      /comma-separated/,
    ],
    ['bare IPv6', { REDIS_CLUSTER_NODES: '::1:7000' }, 'REDIS_CLUSTER_NODES', /entry 1 is not host:port/],
    [
      'no hosts',
      { REDIS_URL: 'redis+cluster://' },
      'REDIS_URL',
      /redis\+cluster:\/\/\[user:password@\]host:port/,
    ],
    ['a database index', { REDIS_URL: 'redis+cluster://a:1/2' }, 'REDIS_URL', /no database index/],
    [
      'a password after the hosts, not echoed',
      { REDIS_URL: 'redis+cluster://a:1/0?password=s3cret' },
      'REDIS_URL',
      /^(?!.*s3cret).*no database index/,
    ],
    [
      'a password in a seed, not echoed',
      { REDIS_CLUSTER_NODES: 'a:1:s3cret' },
      'REDIS_CLUSTER_NODES',
      /^(?!.*s3cret).*entry 1 is not host:port/,
    ],
    [
      'options',
      { REDIS_URL: 'redis+cluster://a:1?tls=true' },
      'REDIS_URL',
      /no database index, path or options/,
    ],
    ['TLS to a cluster', { REDIS_URL: 'rediss+cluster://a:1' }, 'REDIS_URL', /the only cluster scheme/],
    ['bad encoding', { REDIS_URL: 'redis+cluster://u:%zz@a:1' }, 'REDIS_URL', /percent-encoding/],
  ])('refuses %s, naming the variable', (_, env, variable, detail) => {
    let error: unknown;
    try {
      parseRedisTarget(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(RedisConfigError);
    expect((error as RedisConfigError).variable).toBe(variable);
    expect((error as Error).message).toMatch(new RegExp(`^${variable}: `));
    expect((error as Error).message).toMatch(detail);
  });
});
