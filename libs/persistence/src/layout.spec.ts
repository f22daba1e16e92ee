import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The layout the README describes for `src/lib`, checked on every file so a new capability or a
// quick import cannot undo it: a folder per capability over foundation folders, a capability
// reached only through its index, nothing importing back up out of `lib/`, and no chain of
// imports between folders coming back to where it started.

const LIB = resolve(__dirname, 'lib');
/** A toolkit imported file by file; every other folder is a capability with an `index.ts`. */
const FOUNDATION = new Set(['db', 'migrations', 'sql', 'entities']);
const isSpec = (file: string) => /\.(spec|integration-spec)\.ts$/.test(file);

interface Import {
  readonly from: string;
  readonly to: string;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The relative imports and re-exports of every file under `lib/`, resolved to paths. */
function relativeImports(): Import[] {
  const found: Import[] = [];
  for (const file of tsFiles(LIB)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom|^import)\s+'(\.{1,2}\/[^']*)'/gm))
      found.push({ from: file, to: resolve(dirname(file), m[1]!) });
  }
  return found;
}

/** The folder of `lib/` a path is in ('' for one outside `lib/`). */
function folderOf(path: string): string {
  const rel = relative(LIB, path);
  return rel.startsWith('..') ? '' : rel.split('/')[0]!;
}

const all = relativeImports();
const between = all.filter((i) => folderOf(i.to) !== folderOf(i.from) || folderOf(i.to) === '');
const show = (i: Import) => `${relative(LIB, i.from)} -> ${relative(LIB, i.to)}`;

describe('the persistence lib layout', () => {
  it('reads the imports (the check itself sees what it checks)', () => {
    expect(all.length).toBeGreaterThan(500);
    // The README's first example: the feed sync writes through the catalogue's index.
    expect(between.map(show)).toContain('feeds/feed-catalogue.repository.ts -> catalogue');
  });

  it('imports nothing from above lib/ outside the tests', () => {
    expect(between.filter((i) => !isSpec(i.from) && folderOf(i.to) === '').map(show)).toEqual([]);
  });

  it('reaches another capability only through its index.ts, tests included', () => {
    const pastIndex = between.filter((i) => {
      const folder = folderOf(i.to);
      if (folder === '' || FOUNDATION.has(folder)) return false;
      const inside = relative(join(LIB, folder), i.to);
      return inside !== '' && inside !== 'index';
    });
    expect(pastIndex.map(show)).toEqual([]);
  });

  it('has no chain of imports between folders that comes back to where it started', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of between) {
      if (isSpec(i.from) || folderOf(i.to) === '') continue;
      const from = folderOf(i.from);
      edges.set(from, (edges.get(from) ?? new Set()).add(folderOf(i.to)));
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (folder: string, path: string[]): void => {
      if (state.get(folder) === 'done') return;
      if (state.get(folder) === 'open') {
        cycles.push([...path.slice(path.indexOf(folder)), folder].join(' -> '));
        return;
      }
      state.set(folder, 'open');
      for (const next of edges.get(folder) ?? []) visit(next, [...path, folder]);
      state.set(folder, 'done');
    };
    for (const folder of edges.keys()) visit(folder, []);
    expect(cycles).toEqual([]);
  });

  it('keeps no files at the root of lib/', () => {
    const rootFiles = readdirSync(LIB, { withFileTypes: true }).filter((e) => !e.isDirectory());
    expect(rootFiles.map((e) => e.name)).toEqual([]);
  });
});
