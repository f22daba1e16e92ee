/** A Redis Cluster node to start from: the client learns the others from it (CLUSTER SLOTS). */
export interface ClusterSeed {
  readonly host: string;
  readonly port: number;
}

/**
 * Where the gateway's limits live in Redis: one server (any REDIS_URL ioredis reads, its database
 * index included), or a cluster given by seed nodes.
 */
export type RedisTarget =
  | { readonly kind: 'standalone'; readonly url: string }
  | {
      readonly kind: 'cluster';
      readonly seeds: readonly ClusterSeed[];
      readonly username?: string;
      readonly password?: string;
    };

/** A bad REDIS_URL or REDIS_CLUSTER_NODES, naming the variable (the boot check reports it as is). */
export class RedisConfigError extends Error {
  constructor(
    readonly variable: 'REDIS_URL' | 'REDIS_CLUSTER_NODES',
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
  }
}

const CLUSTER_SCHEME = 'redis+cluster://';
const NODES_FORMAT = 'a comma-separated list of host:port (such as 10.0.0.1:7000,10.0.0.2:7000)';
const URL_FORMAT = 'redis+cluster://[user:password@]host:port[,host:port…]';
/** A DNS name or IPv4 address, or an IPv6 address in brackets; then a port. */
const SEED = /^(?:(\[[0-9A-Fa-f:.]+\])|([A-Za-z0-9](?:[A-Za-z0-9._-]{0,252}))):(\d{1,5})$/;

/**
 * The Redis the gateway counts in, from its two variables, or undefined without Redis. The rule:
 * REDIS_CLUSTER_NODES (seeds) or REDIS_URL, never both; REDIS_URL is a cluster when its scheme is
 * `redis+cluster://`, with one or more comma-separated seeds. Every other REDIS_URL is passed to
 * ioredis as before. Empty counts as unset (`.env.example` lists them empty).
 */
export function parseRedisTarget(env: {
  readonly REDIS_URL?: string;
  readonly REDIS_CLUSTER_NODES?: string;
}): RedisTarget | undefined {
  const url = env.REDIS_URL?.trim() || undefined;
  const nodes = env.REDIS_CLUSTER_NODES?.trim() || undefined;
  if (url && nodes)
    throw new RedisConfigError(
      'REDIS_CLUSTER_NODES',
      'set either REDIS_URL or REDIS_CLUSTER_NODES, not both (a cluster can also be REDIS_URL=' +
        `${URL_FORMAT})`,
    );
  if (nodes) return { kind: 'cluster', seeds: parseSeeds(nodes, 'REDIS_CLUSTER_NODES', NODES_FORMAT) };
  if (!url) return undefined;
  // `rediss+cluster://` and the like would otherwise reach ioredis as a server's URL it misreads.
  if (/^[a-z][a-z0-9.-]*\+cluster:/i.test(url) && !url.toLowerCase().startsWith(CLUSTER_SCHEME))
    throw new RedisConfigError(
      'REDIS_URL',
      `the only cluster scheme is ${URL_FORMAT} (TLS is not supported)`,
    );
  if (!url.toLowerCase().startsWith(CLUSTER_SCHEME)) return { kind: 'standalone', url };
  return parseClusterUrl(url.slice(CLUSTER_SCHEME.length));
}

function parseClusterUrl(rest: string): RedisTarget {
  const at = rest.lastIndexOf('@');
  const userinfo = at >= 0 ? rest.slice(0, at) : undefined;
  const afterAt = at >= 0 ? rest.slice(at + 1) : rest;
  const slash = afterAt.search(/[/?#]/);
  const hosts = slash >= 0 ? afterAt.slice(0, slash) : afterAt;
  const tail = slash >= 0 ? afterAt.slice(slash) : '';
  // A cluster has database 0 only (SELECT is refused there): `/0` or nothing.
  if (tail !== '' && tail !== '/' && tail !== '/0')
    throw new RedisConfigError(
      'REDIS_URL',
      // Not echoed: options may hold a password, and this message goes to the boot log.
      `a cluster has no database index, path or options: ${URL_FORMAT} (${tail.length} characters after the hosts)`,
    );
  const seeds = parseSeeds(hosts, 'REDIS_URL', URL_FORMAT);
  if (userinfo === undefined) return { kind: 'cluster', seeds };
  const colon = userinfo.indexOf(':');
  const decode = (s: string): string | undefined => {
    try {
      return s === '' ? undefined : decodeURIComponent(s);
    } catch {
      throw new RedisConfigError('REDIS_URL', `bad percent-encoding in the credentials: ${URL_FORMAT}`);
    }
  };
  const username = decode(colon >= 0 ? userinfo.slice(0, colon) : userinfo);
  const password = colon >= 0 ? decode(userinfo.slice(colon + 1)) : undefined;
  return {
    kind: 'cluster',
    seeds,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
  };
}

function parseSeeds(
  list: string,
  variable: 'REDIS_URL' | 'REDIS_CLUSTER_NODES',
  format: string,
): ClusterSeed[] {
  const seeds = list.split(',').map((entry, i) => {
    const m = SEED.exec(entry.trim());
    const port = m ? Number(m[3]) : 0;
    // Named by position, not echoed: a mistyped entry may hold a password.
    if (!m || port < 1 || port > 65_535)
      throw new RedisConfigError(variable, `entry ${i + 1} is not host:port; expected ${format}`);
    // ioredis takes an IPv6 address without its brackets.
    return { host: m[1] ? m[1].slice(1, -1) : m[2]!, port };
  });
  return seeds;
}
