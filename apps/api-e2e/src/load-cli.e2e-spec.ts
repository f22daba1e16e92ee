import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

const CLI = join(resolve(__dirname, '../../..'), 'dist/tools/loader/load.js');

/** The load CLI's exit code and output, with a database URL nothing listens on. */
const load = (...args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [CLI, ...args],
      // Port 1 on loopback: a run that reached the database would fail there, never load.
      { env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' } },
      (error, stdout, stderr) => done({ code: error ? (error.code as number) : 0, stdout, stderr }),
    ),
  );

describe('npm run load (the sample loader CLI)', () => {
  it('prints its usage for --help and loads nothing', async () => {
    const r = await load('--help');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('usage: npm run load -- [--size small|medium|full] [--reset]');
  });

  it.each(['--sise full', '--size huge', 'full', '--reset now'])(
    "refuses '%s' with its usage before touching a database",
    async (args) => {
      const r = await load(...args.split(' '));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('usage: npm run load');
      expect(r.stderr).not.toContain('ECONNREFUSED');
    },
  );
});
