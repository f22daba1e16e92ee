import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = join(resolve(__dirname, '../..'), 'dist/tools/feeds/feeds.js');

/** The built sync CLI's exit code and output, with a database URL nothing listens on. */
const feeds = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stderr: string }>((done) =>
    execFile(
      process.execPath,
      [CLI, ...args],
      // Port 1 on loopback: a sync that reached the database fails there (exit 2, "feeds failed").
      {
        env: {
          PATH: process.env['PATH'] ?? '',
          DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
          ...env,
        },
      },
      (error, _stdout, stderr) => done({ code: error ? (error.code as number) : 0, stderr }),
    ),
  );

describe('npm run feeds -- sync --rest-ratio (the built CLI)', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'feeds-cli-'))));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const sync = (...args: string[]) => ['sync', '--feeds', 'mtgjson', '--dir', dir, ...args];

  it.each(['--rest-ratio -1', '--rest-ratio 101', '--rest-ratio three', '--rest-ratio=', '--rest-ratio'])(
    "refuses '%s' naming the option and its range, before touching a database",
    async (args) => {
      const r = await feeds(sync(...args.split(' ')));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--rest-ratio must be a number from 0 to 100');
      expect(r.stderr).toContain('usage: npm run feeds');
      expect(r.stderr).not.toContain('feeds failed');
    },
  );

  it('refuses a FEEDS_REST_RATIO out of range by its name, and lets --rest-ratio win over it', async () => {
    const refused = await feeds(sync(), { FEEDS_REST_RATIO: '1000' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('FEEDS_REST_RATIO must be a number from 0 to 100');
    expect(refused.stderr).not.toContain('feeds failed');

    // Accepted, the sync goes as far as the database (which refuses): no usage printed.
    const given = await feeds(sync('--rest-ratio', '0.5'), { FEEDS_REST_RATIO: '1000' });
    expect(given.code).toBe(2);
    expect(given.stderr).not.toContain('usage:');
    expect(given.stderr).toContain('"msg":"feeds failed"');
  });
});
