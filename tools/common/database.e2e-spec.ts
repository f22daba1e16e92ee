import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { resolveDatabase } from './database';
import { freePort } from '@tcg/persistence/testing';
import { portOpen } from './ports';

/**
 * Ownership of the embedded PostgreSQL among the processes that use it, on a server this suite
 * starts in its own data directory and port (never the machine's shared PostgreSQL).
 */
const DATABASE_JS = join(resolve(__dirname, '../..'), 'dist/tools/common/database.js');

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    return (await client.query('SELECT 1 AS one')).rows[0].one === 1;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('embedded PostgreSQL ownership', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const owner = () => join(dataDir, 'postgres.owner');
  const leases = async () =>
    existsSync(join(owner(), 'leases')) ? (await readdir(join(owner(), 'leases'))).length : 0;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tcg-owner-'));
    await chmod(dataDir, 0o755); // as root the server runs as the postgres user, which must reach it
    port = await freePort();
    env = { EMBEDDED_PG_PORT: String(port), TCG_DATA_DIR: dataDir };
  });
  afterAll(async () => {
    // Whatever a failed test left running is stopped by taking and giving back a lease.
    if (await portOpen(port)) await (await resolveDatabase(env)).stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('two users starting at once start one server, and it stops only when the last one is done', async () => {
    const [first, second] = await Promise.all([resolveDatabase(env), resolveDatabase(env)]);
    expect(first.url).toBe(second.url);
    expect(await leases()).toBe(2);
    expect(await answers(first.url)).toBe(true);

    // The first user (an import, say) is done while the second (npm start) still serves.
    await first.stop();
    expect(await answers(second.url)).toBe(true);

    await second.stop();
    expect(await portOpen(port)).toBe(false);
    expect(await leases()).toBe(0);
  });

  it('a user killed with its whole process group leaves the server to the others; its lease and lock are dropped', async () => {
    // The starter is a separate process, in its own process group as a terminal would run it.
    const starter = spawn(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(DATABASE_JS)}).resolveDatabase().then(() => console.log('ready'), (e) => { console.error(e); process.exit(3); });
         setInterval(() => undefined, 1000);`,
      ],
      {
        env: { ...process.env, ...env, DATABASE_URL: '' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    starter.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    await new Promise<void>((ready, failed) => {
      starter.stdout!.on('data', (c: Buffer) => c.toString().includes('ready') && ready());
      starter.once('exit', (code) => failed(new Error(`starter exited ${code}: ${stderr}`)));
    });
    expect(stderr).toContain('starting embedded PostgreSQL');

    const user = await resolveDatabase(env);
    expect(await leases()).toBe(2);
    const exited = new Promise((r) => starter.once('exit', r));
    process.kill(-starter.pid!, 'SIGKILL');
    await exited;
    // Killed while holding the lock, as if in the middle of starting the server.
    await writeFile(join(owner(), 'lock'), `${starter.pid}\n`);

    expect(await answers(user.url)).toBe(true);
    await user.stop();
    expect(await portOpen(port)).toBe(false);
    expect(await leases()).toBe(0);
    expect(existsSync(join(owner(), 'lock'))).toBe(false);
  });

  it('never stops a server on the port that it did not start', async () => {
    const started = await resolveDatabase(env);
    const record = JSON.parse(await readFile(join(owner(), 'server.json'), 'utf8')) as { pid: number };
    await rm(join(owner(), 'server.json')); // as if something else had started it
    await started.stop();
    expect(await answers(started.url)).toBe(true);

    process.kill(record.pid, 'SIGINT'); // stopped by hand, as its real owner would
    for (let i = 0; i < 200 && (await portOpen(port)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await portOpen(port)).toBe(false);
  });
});
