import Redis, { Cluster } from 'ioredis';
import { createQuotaRedisClient, type QuotaRedisClient } from './redis-quota.store';

/**
 * The clients the gateway builds from its configuration, without a server: their options only.
 * Each is disconnected in the same turn it was made, before it tries to connect (else ioredis keeps
 * a refused socket open for 2 s, past Jest's end).
 */
describe('createQuotaRedisClient', () => {
  const deadlines = { commandTimeout: 250, connectTimeout: 300 };
  const made = (build: () => QuotaRedisClient): QuotaRedisClient => {
    const client = build();
    client.disconnect();
    return client;
  };

  it('gives a server the deadlines, its database, and no queue while disconnected', () => {
    const client = made(() =>
      createQuotaRedisClient({ kind: 'standalone', url: 'redis://127.0.0.1:1/2' }, deadlines),
    );
    expect(client).toBeInstanceOf(Redis);
    expect((client as Redis).options).toMatchObject({
      db: 2,
      commandTimeout: 250,
      connectTimeout: 300,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      enableAutoPipelining: true,
    });
  });

  it('gives a cluster the deadlines and credentials per node, and fails over to memory at once', () => {
    const client = made(() =>
      createQuotaRedisClient(
        {
          kind: 'cluster',
          seeds: [
            { host: '127.0.0.1', port: 1 },
            { host: '127.0.0.1', port: 2 },
          ],
          username: 'app',
          password: 'secret',
        },
        deadlines,
      ),
    );
    expect(client).toBeInstanceOf(Cluster);
    const cluster = client as Cluster;
    expect(cluster.options).toMatchObject({
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      // No retry of a command whose master is unreachable or refuses with CLUSTERDOWN: memory answers.
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 0,
      slotsRefreshTimeout: 300,
      redisOptions: { commandTimeout: 250, connectTimeout: 300, username: 'app', password: 'secret' },
    });
    expect(cluster.options.clusterRetryStrategy?.call(cluster, 3)).toBe(600);
    expect(cluster.options.clusterRetryStrategy?.call(cluster, 50)).toBe(2000);
  });
});
