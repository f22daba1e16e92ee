import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './stack';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A redis-server a suite owns, on its own port, with its files in `dir` (also its working
 * directory, so nothing lands in the repository). Append-only with fsync on every write, as a
 * quota store should run: a kill -9 then loses nothing Redis acknowledged, and `start` again on
 * the same port and directory brings back every write it acknowledged. `args` adds options (a
 * cluster node's).
 */
export class OwnRedis {
  private child?: ChildProcess;

  constructor(
    readonly port: number,
    readonly dir: string,
    private readonly args: readonly string[] = [],
  ) {}

  /**
   * A server started on a free port with its files in a new temporary directory (named `prefix…`);
   * `remove` it after the suite.
   */
  static async startInTempDir(prefix: string): Promise<OwnRedis> {
    const server = new OwnRedis(await freePort(), await mkdtemp(join(tmpdir(), prefix)));
    try {
      await server.start();
    } catch (error) {
      await server.remove();
      throw error;
    }
    return server;
  }

  /** Starts the server; resolves once it answers PING (within 5 s). */
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        ...this.args,
      ],
      { stdio: 'ignore', cwd: this.dir },
    );
    this.child = child;
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`redis-server on ${this.port} exited: see ${this.dir}`);
      const probe = this.client();
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch {
        await sleep(25);
      } finally {
        probe.disconnect();
      }
    }
    throw new Error(`redis-server on port ${this.port} did not come up`);
  }

  /** kill -9; resolves when it has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  /** kill -9, then its directory removed. */
  async remove(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true });
  }

  /** A connection of the test's own that neither retries nor queues (connect it yourself). */
  client(): Redis {
    const redis = new Redis({
      port: this.port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    return redis;
  }
}
