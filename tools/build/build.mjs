// Transpiles every non-test TypeScript file of apps/, libs/ and tools/ into dist/ with SWC,
// mirroring the source tree. Path aliases (@tcg/*) are rewritten to relative imports, so the
// output runs on plain `node` with no runtime resolver. Type checking is `npm run typecheck`.
// Files in an app's `assets/` folders (the gateway's browser pages: HTML, CSS, plain ES modules)
// are not Node code: they are copied as they are, beside the code that serves them.
import { transformFile } from '@swc/core';
import { copyFile, mkdir, readdir, writeFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const out = join(root, 'dist');
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

const started = Date.now();
await rm(out, { recursive: true, force: true });
const files = (await Promise.all(['apps', 'libs', 'tools'].map((d) => walk(join(root, d))))).flat();
await Promise.all(
  files.map(async (file) => {
    const { code, map } = await transformFile(file, { ...swcOptions, sourceMaps: true });
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (map) await writeFile(`${target}.map`, map);
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
await Promise.all(
  assets.map(async (file) => {
    const target = join(out, relative(root, file));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(file, target);
  }),
);
process.stdout.write(
  `${JSON.stringify({ level: 'info', msg: 'build done', files: files.length, assets: assets.length, ms: Date.now() - started })}\n`,
);
