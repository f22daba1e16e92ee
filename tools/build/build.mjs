// Transpiles every non-test TypeScript file of apps/, libs/, tools/ and clients/ into dist/ with SWC,
// mirroring the source tree. Path aliases (@tcg/*) are rewritten to relative imports, so the
// output runs on plain `node` with no runtime resolver. Type checking is `npm run typecheck`.
// Files in an app's `assets/` folders (the gateway's browser pages: HTML, CSS, plain ES modules)
// are not Node code: they are copied as they are, beside the code that serves them.
//
// The build runs beside processes that run from dist/ (`npm start`'s services while a scheduled
// `npm run feeds` builds first, or the other way round), so it never deletes dist/ nor writes a
// file in place: a file whose content is unchanged is left as it is (same inode), and a changed
// one is written beside it and renamed over it, so a reader sees the old file or the new one,
// never none and never half of one. An output whose source is gone stays until `--clean`.
//   node tools/build/build.mjs [--out DIR] [--clean]
import { transformFile } from '@swc/core';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = outArg >= 0 && args[outArg + 1] ? resolve(args[outArg + 1]) : join(root, 'dist');
const clean = args.includes('--clean');
const swcOptions = createRequire(import.meta.url)('./swc-options.cjs');
const isTest = (f) => /\.(spec|integration-spec|e2e-spec)\.ts$/.test(f) || f.endsWith('.d.ts');

async function walk(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') files.push(...(await walk(p)));
    } else if (e.name.endsWith('.ts') && !isTest(e.name)) files.push(p);
  }
  return files;
}

/** Every output this build wrote or kept, for `--clean`. */
const outputs = new Set();
const counts = { written: 0, unchanged: 0, removed: 0 };

/** `target` holds `content` afterwards: untouched when it already did, else replaced by a rename. */
async function put(target, content) {
  outputs.add(target);
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const current = await readFile(target).catch(() => undefined);
  if (current && current.equals(bytes)) {
    counts.unchanged++;
    return;
  }
  await mkdir(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, target);
  counts.written++;
}

async function existing(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files.push(...(await existing(p)));
    else files.push(p);
  }
  return files;
}

const started = Date.now();
const files = (
  await Promise.all(['apps', 'libs', 'tools', 'clients'].map((d) => walk(join(root, d))))
).flat();
await Promise.all(
  files.map(async (file) => {
    const { code, map } = await transformFile(file, { ...swcOptions, sourceMaps: true });
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    // The map first: code that is new when loaded finds its map new too.
    if (map) await put(`${target}.map`, map);
    await put(target, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
  }),
);

async function assetsUnder(dir, inAssets = false) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules') files.push(...(await assetsUnder(p, inAssets || e.name === 'assets')));
    } else if (inAssets) files.push(p);
  }
  return files;
}
const assets = await assetsUnder(join(root, 'apps'));
await Promise.all(assets.map(async (file) => put(join(out, relative(root, file)), await readFile(file))));
if (clean) {
  for (const file of await existing(out)) {
    // Another build's file being written is not stale.
    if (!outputs.has(file) && !file.endsWith('.tmp')) {
      await rm(file, { force: true });
      counts.removed++;
    }
  }
}
process.stdout.write(
  `${JSON.stringify({ level: 'info', msg: 'build done', files: files.length, assets: assets.length, ...counts, ms: Date.now() - started })}\n`,
);
