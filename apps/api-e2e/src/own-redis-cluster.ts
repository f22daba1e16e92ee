import { execFile, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster } from 'ioredis';
import { OwnRedis } from './own-redis';
import { freePort } from './stack';

/** Whether this machine can run `OwnRedisCluster` (Debian's redis-server and redis-tools). */
export const hasRedisClusterBinaries =
  spawnSync('redis-server', ['--version']).status === 0 && spawnSync('redis-cli', ['--version']).status === 0;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A node's options: the cluster bus port is chosen free too (the default, port + 10000, may be
 * taken or past 65535).
 */
function nodeArgs(busPort: number, dir: string): string[] {
  return [
    '--cluster-port',
    String(busPort),
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    '1000',
    '--cluster-require-full-coverage',
    'no',
    '--logfile',
    join(dir, 'redis.log'),
  ];
}

/**
 * A Redis Cluster of masters only that a test owns: `redis-server --cluster-enabled yes` on free
 * ports, joined by `redis-cli --cluster create`, each node append-only with an fsync per write (a
 * node killed with SIGKILL and restarted from its directory keeps every write it acknowledged, as a
 * quota store should run) and `cluster-require-full-coverage no` (the other masters keep serving
 * their slots while one is down). `cluster-node-timeout` is 1 s, so the others mark a dead master
 * failed quickly.
 */
export class OwnRedisCluster {
  private constructor(
    private readonly root: string,
    private readonly nodes: readonly OwnRedis[],
  ) {}

  static async start(masters = 3): Promise<OwnRedisCluster> {
    const root = await mkdtemp(join(tmpdir(), 'tcg-redis-cluster-'));
    const nodes: OwnRedis[] = [];
    for (let i = 0; i < masters; i++) {
      const [port, busPort] = [await freePort(), await freePort()];
      const dir = join(root, String(port));
      await mkdir(dir);
      nodes.push(new OwnRedis(port, dir, nodeArgs(busPort, dir)));
    }
    const cluster = new OwnRedisCluster(root, nodes);
    try {
      await Promise.all(nodes.map((n) => n.start()));
      await promisify(execFile)('redis-cli', [
        '--cluster',
        'create',
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ]);
      await Promise.all(nodes.map((n) => cluster.untilClusterOk(n.port)));
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  /** The nodes' ports, in start order. */
  get ports(): number[] {
    return this.nodes.map((n) => n.port);
  }

  /** `host:port,host:port,…`, as REDIS_CLUSTER_NODES takes it. */
  get seedList(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  /** A client for the test's own reads (it queues while a node is away, unlike the gateway's). */
  client(): Cluster {
    const client = new Cluster(this.nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
    client.on('error', () => undefined); // it reconnects on its own after a node restarts
    client.on('node error', () => undefined);
    return client;
  }

  /** The port of the master that serves `key`'s slot (CLUSTER KEYSLOT, CLUSTER SLOTS). */
  async ownerOf(key: string): Promise<number> {
    const redis = this.nodes[0]!.client();
    try {
      const slot = Number(await redis.cluster('KEYSLOT', key));
      const range = (await redis.cluster('SLOTS')).find(([from, to]) => slot >= from && slot <= to);
      const master = range?.[2];
      if (!master) throw new Error(`no master serves slot ${slot}`);
      return Number(master[1]);
    } finally {
      redis.disconnect();
    }
  }

  /** kill -9 of one node; resolves when it has exited. */
  async kill(port: number): Promise<void> {
    await this.node(port).kill();
  }

  /** Starts a killed node again on its port, from its directory (nodes.conf, append-only file). */
  async restart(port: number): Promise<void> {
    await this.node(port).start();
  }

  async close(): Promise<void> {
    await Promise.all(this.nodes.map((n) => this.kill(n.port)));
    await rm(this.root, { recursive: true, force: true });
  }

  private node(port: number): OwnRedis {
    const node = this.nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node on port ${port}`);
    return node;
  }

  private async untilClusterOk(port: number): Promise<void> {
    const redis = this.node(port).client();
    try {
      await redis.connect();
      for (let i = 0; i < 400; i++) {
        if (String(await redis.cluster('INFO')).includes('cluster_state:ok')) return;
        await sleep(25);
      }
      throw new Error(`cluster not ok on ${port} after 10 s`);
    } finally {
      redis.disconnect();
    }
  }
}
