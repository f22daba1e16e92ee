import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './stack';

/**
 * A primary and a streaming replica made with PostgreSQL's own binaries (`initdb`,
 * `pg_basebackup -R`), on free loopback ports in a temporary directory: real replication for the
 * read-replica suite, never the machine's own server.
 */
export interface ReplicatedPostgres {
  readonly primaryUrl: (database: string) => string;
  readonly replicaUrl: (database: string) => string;
  /** Stops the replica's server at once (SIGKILL): a replica lost without a word. */
  killReplica(): void;
  stop(): Promise<void>;
}

const BINARIES = ['initdb', 'pg_basebackup', 'postgres'];

/** The directory holding every binary needed, from `pg_config` or Debian's layout; undefined when absent. */
export function postgresBinDir(): string | undefined {
  const candidates: string[] = [];
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian))
    for (const version of readdirSync(debian).sort((a, b) => Number(b) - Number(a)))
      candidates.push(join(debian, version, 'bin'));
  return candidates.find((dir) => BINARIES.every((b) => existsSync(join(dir, b))));
}

/** PostgreSQL refuses to run as root: then its files and processes belong to the `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error('running as root needs a postgres OS user for PostgreSQL');
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

async function ready(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`PostgreSQL exited: ${log()}`);
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`PostgreSQL did not accept connections: ${log()}`);
}

export async function startReplicatedPostgres(binDir: string): Promise<ReplicatedPostgres> {
  const user = serverUser();
  const run = promisify(execFile);
  const dir = await mkdtemp(join(tmpdir(), 'tcg-replicas-'));
  await chmod(dir, 0o755);
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  for (const d of [primaryDir, replicaDir]) {
    await mkdir(d, { mode: 0o700 });
    if (user) await chown(d, user.uid, user.gid);
  }
  const [primaryPort, replicaPort] = await Promise.all([freePort(), freePort()]);
  const servers: ChildProcess[] = [];
  const start = async (dataDir: string, port: number): Promise<ChildProcess> => {
    const server = spawn(
      join(binDir, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        // Test data: durability is not what is tested, speed of the suite is.
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      { ...(user ?? {}), stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    server.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    servers.push(server);
    await ready(`postgres://postgres@127.0.0.1:${port}/postgres`, server, () => stderr);
    return server;
  };
  const stop = async (): Promise<void> => {
    await Promise.all(
      servers.map((s) =>
        s.exitCode === null && s.signalCode === null
          ? new Promise((r) => {
              s.once('exit', r);
              s.kill('SIGINT'); // fast shutdown
            })
          : Promise.resolve(),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run(
      join(binDir, 'initdb'),
      ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      user ?? {},
    );
    await start(primaryDir, primaryPort);
    // -R writes standby.signal and the primary's address: the copy starts as a streaming replica.
    await run(
      join(binDir, 'pg_basebackup'),
      [
        '-h',
        '127.0.0.1',
        '-p',
        String(primaryPort),
        '-U',
        'postgres',
        '-D',
        replicaDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
      ],
      user ?? {},
    );
    const replica = await start(replicaDir, replicaPort);
    return {
      primaryUrl: (db) => `postgres://postgres@127.0.0.1:${primaryPort}/${db}`,
      replicaUrl: (db) => `postgres://postgres@127.0.0.1:${replicaPort}/${db}`,
      killReplica: () => replica.kill('SIGKILL'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
