import { createDataSource, migrate } from '@tcg/persistence';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { connectAdmin, embeddedPassword, embeddedUrl, startEmbeddedPostgres } from './embedded-postgres';
import { REPO_ROOT, writeFileAtomically } from './files';
import { log } from './log';
import { portOpen } from './ports';

export const EMBEDDED_DATABASE = 'tcg';

/**
 * Where `npm start` and the tools keep local state (the embedded PostgreSQL, the demo key):
 * TCG_DATA_DIR, else `.data` in the workspace. A second stack (or a test) points it elsewhere.
 */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env): string {
  const given = env['TCG_DATA_DIR'];
  if (given === undefined || given === '') return join(REPO_ROOT, '.data');
  if (!isAbsolute(given)) throw new Error(`TCG_DATA_DIR must be an absolute path (got '${given}')`);
  return resolve(given);
}

function embeddedPortOf(env: NodeJS.ProcessEnv): number {
  const text = env['EMBEDDED_PG_PORT'] ?? '54329';
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535)
    throw new Error(`EMBEDDED_PG_PORT must be a TCP port 1-65535 (got '${text}')`);
  return port;
}

export interface ResolvedDatabase {
  readonly url: string;
  readonly embedded: boolean;
  /**
   * Ends this process's use of the database. The embedded server stops only when no other live
   * process uses it (see `resolveDatabase`).
   */
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when given; otherwise the embedded PostgreSQL under `<data dir>/postgres`.
 *
 * The embedded server has one owner at a time: whichever processes hold a lease on it. Each user
 * (`npm start`, an import, a load) takes a lease, under a lock, before it touches the server and
 * gives it back when done; the server is started by the first user and stopped by the last one,
 * whoever that is. So an import that ran before `npm start` no longer stops the server `npm
 * start` is serving from, and two tools never both start it. The server runs detached from its
 * starter, so a Ctrl-C or a kill of one user does not take it away from the others; the lease of
 * a process that died is dropped by the next process that looks.
 */
export async function resolveDatabase(env: NodeJS.ProcessEnv = process.env): Promise<ResolvedDatabase> {
  const given = env['DATABASE_URL'];
  if (given) return { url: given, embedded: false, stop: async () => undefined };
  const port = embeddedPortOf(env);
  const owner = new EmbeddedOwnership(dataDirOf(env), port);
  const lease = await owner.acquire();
  const url = embeddedUrl(port, await owner.password(), EMBEDDED_DATABASE);
  return { url, embedded: true, stop: () => owner.release(lease) };
}

interface ServerRecord {
  readonly pid: number;
  readonly dataDir: string;
}

/** How long a process waits for another one to finish starting or stopping the server. */
const LOCK_WAIT_MS = 120_000;
/** How long a stopping server may take before we report it (a fast shutdown takes well under 1 s). */
const STOP_WAIT_MS = 60_000;

/**
 * The files that make ownership of one embedded server explicit, in `<data dir>/postgres.owner/`:
 * `lock` (held while starting, stopping or changing leases; holds the holder's pid), `leases/<pid>-<id>`
 * (one per user) and `server.json` (the server this directory's users started).
 */
export class EmbeddedOwnership {
  private readonly dir: string;

  constructor(
    private readonly dataDir: string,
    private readonly port: number,
  ) {
    this.dir = join(dataDir, 'postgres.owner');
  }

  /** Takes a lease, starting the server when it is not running. Returns the lease's name. */
  async acquire(): Promise<string> {
    return this.locked(async () => {
      const lease = `${process.pid}-${randomUUID()}`;
      await mkdir(join(this.dir, 'leases'), { recursive: true });
      await writeFile(join(this.dir, 'leases', lease), `${process.pid}\n`);
      try {
        if (!(await portOpen(this.port))) await this.start();
        await ensureDatabase(this.port, await this.password());
      } catch (error) {
        await rm(join(this.dir, 'leases', lease), { force: true });
        throw error;
      }
      return lease;
    });
  }

  /** The superuser's password, kept in `<data dir>/postgres.password` (see embeddedPassword). */
  password(): Promise<string> {
    return embeddedPassword(join(this.dataDir, 'postgres'));
  }

  /** Gives a lease back; the last live lease stops the server this directory started. */
  async release(lease: string): Promise<void> {
    await this.locked(async () => {
      await rm(join(this.dir, 'leases', lease), { force: true });
      const others = await this.liveLeases();
      if (others.length > 0) {
        log('info', 'embedded PostgreSQL left running: other processes use it', { leases: others.length });
        return;
      }
      await this.stopRecordedServer();
    });
  }

  /** Live leases; those of processes that died are removed on the way. */
  async liveLeases(): Promise<string[]> {
    const dir = join(this.dir, 'leases');
    const names = existsSync(dir) ? await readdir(dir) : [];
    const live: string[] = [];
    for (const name of names) {
      if (alive(Number(name.split('-')[0]))) live.push(name);
      else await rm(join(dir, name), { force: true });
    }
    return live;
  }

  private async start(): Promise<void> {
    const dataDir = join(this.dataDir, 'postgres');
    log('info', 'DATABASE_URL not set: starting embedded PostgreSQL', { dataDir, port: this.port });
    const server = await startEmbeddedPostgres({
      dataDir,
      port: this.port,
      persistent: true,
      detached: { logFile: join(this.dir, 'postgres.log') },
      log: (msg, fields) => log('warn', msg, fields),
    });
    const record: ServerRecord = { pid: server.pid, dataDir: server.dataDir };
    await writeFileAtomically(join(this.dir, 'server.json'), `${JSON.stringify(record)}\n`);
  }

  /**
   * Stops the server recorded in server.json if it still runs. A server on the port that this
   * directory did not start (no record) is never stopped.
   */
  private async stopRecordedServer(): Promise<void> {
    const file = join(this.dir, 'server.json');
    if (!existsSync(file)) return;
    const record = parseRecord(await readFile(file, 'utf8'));
    if (!record) {
      log('warn', 'unreadable embedded PostgreSQL record: leaving the server running', { file });
      await rm(file, { force: true });
      return;
    }
    const pidFile = join(record.dataDir, 'postmaster.pid');
    // postmaster.pid names the running server: a recorded pid that now belongs to another
    // process (the server died and the pid was reused) must not be signalled.
    if (alive(record.pid) && (await postmasterPid(pidFile)) === record.pid) {
      log('info', 'stopping embedded PostgreSQL (no process uses it any more)', { pid: record.pid });
      process.kill(record.pid, 'SIGINT'); // fast shutdown: aborts sessions, writes a checkpoint
      const deadline = Date.now() + STOP_WAIT_MS;
      // A stopped postmaster removes postmaster.pid; its process may linger as a zombie when its
      // starter is gone and nothing reaps it, so the file is the signal, not the pid.
      while (existsSync(pidFile) && alive(record.pid)) {
        if (Date.now() > deadline)
          throw new Error(
            `embedded PostgreSQL (pid ${record.pid}) did not stop within ${STOP_WAIT_MS / 1000} s`,
          );
        await sleep(50);
      }
    }
    await rm(file, { force: true });
  }

  /**
   * Runs `work` holding the directory's lock: a file created exclusively, naming its holder. A
   * lock whose holder died (killed while starting the server) is broken.
   */
  private async locked<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(this.dir, { recursive: true });
    const lock = join(this.dir, 'lock');
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await writeFile(lock, `${process.pid}\n`, { flag: 'wx' });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const seen = await stat(lock).catch(() => undefined);
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      // A lock without a pid is one whose holder died between creating and writing it, or is
      // writing it right now: broken once it is clearly older than that write.
      const orphan = holder > 0 ? !alive(holder) : seen !== undefined && Date.now() - seen.mtimeMs > 10_000;
      if (seen && orphan) {
        await breakLock(lock, seen.ino, holder);
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`another process (pid ${holder}) has held ${lock} for ${LOCK_WAIT_MS / 1000} s`);
      await sleep(100);
    }
    try {
      return await work();
    } finally {
      await rm(lock, { force: true });
    }
  }
}

/**
 * Removes a dead holder's lock without removing a live one that replaced it meanwhile: two
 * processes may judge the same dead lock at once, and the slower one must not delete the lock the
 * faster one has just created. The lock is renamed aside (atomic) and checked to be the file that was
 * judged; a different one, taken by mistake, is linked back (atomic, and refused if yet another
 * process has created a lock since).
 */
async function breakLock(lock: string, judgedIno: number, holder: number): Promise<void> {
  const aside = `${lock}.broken.${process.pid}`;
  try {
    await rename(lock, aside);
  } catch {
    return; // already broken by another process
  }
  const taken = await stat(aside).catch(() => undefined);
  if (taken && taken.ino !== judgedIno) {
    await link(aside, lock).catch(() => undefined);
  } else {
    log('warn', 'breaking the embedded PostgreSQL lock of a process that died', { pid: holder || null });
  }
  await rm(aside, { force: true });
}

/** Whether a process exists (EPERM: it does, under another user). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseRecord(text: string): ServerRecord | undefined {
  try {
    const r = JSON.parse(text) as Partial<ServerRecord>;
    return Number.isInteger(r.pid) && typeof r.dataDir === 'string' ? (r as ServerRecord) : undefined;
  } catch {
    return undefined;
  }
}

async function postmasterPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.split('\n', 1)[0]);
}

async function ensureDatabase(port: number, password: string): Promise<void> {
  const admin = await connectAdmin(port, password);
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await admin.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A migrated data source for a tool. */
export async function openDatabase(url: string, poolSize = 4): Promise<DataSource> {
  const ds = await createDataSource({ url, poolSize, applicationName: 'tcg-tools' }).initialize();
  const applied = await migrate(ds);
  if (applied.length > 0) log('info', 'migrations applied', { migrations: applied });
  return ds;
}

/**
 * Runs `work` on a migrated data source over DATABASE_URL (or the embedded PostgreSQL), then
 * closes it and gives back its use of an embedded server, whatever happens.
 */
export async function withDatabase<T>(work: (ds: DataSource) => Promise<T>, poolSize = 4): Promise<T> {
  const db = await resolveDatabase();
  try {
    const ds = await openDatabase(db.url, poolSize);
    try {
      return await work(ds);
    } finally {
      await ds.destroy();
    }
  } finally {
    await db.stop();
  }
}
