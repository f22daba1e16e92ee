import { execFile } from 'node:child_process';
import { existsSync, openSync, readdirSync, readSync, closeSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BUILD = resolve(__dirname, 'build.mjs');

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Runs the build into `out` while checking, every few milliseconds, that `watched` all exist. */
async function buildWatching(out: string, watched: readonly string[], extra: string[] = []) {
  const missing = new Set<string>();
  const timer = setInterval(() => {
    for (const f of watched) if (!existsSync(f)) missing.add(f);
  }, 2);
  try {
    const { stdout } = await run(process.execPath, [BUILD, '--out', out, ...extra]);
    return {
      missing: [...missing],
      report: JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>,
    };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The build runs beside processes that run from its output (`npm start`'s services while a
 * scheduled `npm run feeds` builds first): it must never remove a file they may load next, nor
 * replace one they are reading.
 */
describe('tools/build/build.mjs beside running services', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'build-'));
    await run(process.execPath, [BUILD, '--out', out]);
  }, 120_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('leaves every file of an up-to-date output as it is: none missing at any moment, none replaced', async () => {
    const before = new Map(filesUnder(out).map((f) => [f, statSync(f).ino]));
    expect(before.size).toBeGreaterThan(400);
    const feeds = join(out, 'tools/feeds/feeds.js');
    const watched = [feeds, `${feeds}.map`, ...[...before.keys()].filter((_, i) => i % 20 === 0)];
    const { missing, report } = await buildWatching(out, watched);
    expect(missing).toEqual([]);
    expect(report).toMatchObject({ written: 0, removed: 0 });
    expect(report['unchanged']).toBe(before.size);
    const after = new Map(filesUnder(out).map((f) => [f, statSync(f).ino]));
    expect(after).toEqual(before);
  }, 120_000);

  it('replaces a changed file by a rename: a reader of the old one reads it whole, a new reader the new one', async () => {
    const target = join(out, 'libs/domain/src/index.js');
    const built = await readFile(target, 'utf8');
    const stale = `// an older build\n${'x'.repeat(100_000)}\n`;
    await writeFile(target, stale);
    const fd = openSync(target, 'r'); // a process part-way through reading the file
    try {
      const { missing, report } = await buildWatching(out, [target, `${target}.map`]);
      expect(missing).toEqual([]);
      expect(report).toMatchObject({ written: 1 });
      const old = Buffer.alloc(stale.length);
      expect(readSync(fd, old, 0, old.length, 0)).toBe(stale.length);
      expect(old.toString()).toBe(stale);
    } finally {
      closeSync(fd);
    }
    expect(await readFile(target, 'utf8')).toBe(built);
    expect(filesUnder(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it('removes an output whose source is gone only when asked (--clean)', async () => {
    const orphan = join(out, 'tools/feeds/removed-long-ago.js');
    await writeFile(orphan, 'module.exports = 1;\n');
    await run(process.execPath, [BUILD, '--out', out]);
    expect(existsSync(orphan)).toBe(true);
    const { report } = await buildWatching(out, [], ['--clean']);
    expect(report).toMatchObject({ removed: 1, written: 0 });
    expect(existsSync(orphan)).toBe(false);
  }, 120_000);
});
