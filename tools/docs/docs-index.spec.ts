import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';

/**
 * docs/README.md is the index of docs/: every page under it is linked from there, so a page added
 * without its row is found here rather than by a reader who never finds it.
 */
const DOCS = resolve(__dirname, '../../docs');
const INDEX = 'README.md';

/** Every markdown page under docs/, as a path relative to it with `/` separators. */
function pagesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return pagesUnder(path);
    return e.name.endsWith('.md') ? [relative(DOCS, path).split('\\').join('/')] : [];
  });
}

/** The targets of the index's inline links inside docs/, normalised, without their anchors. */
function linkedFromIndex(): Set<string> {
  const text = readFileSync(join(DOCS, INDEX), 'utf8');
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!.split('#')[0]!);
  return new Set(
    targets
      .filter((t) => t !== '' && !/^[a-z]+:/i.test(t))
      .map((t) => posix.normalize(t))
      .filter((t) => !t.startsWith('../')),
  );
}

const pages = pagesUnder(DOCS).filter((p) => p !== INDEX);
const linked = linkedFromIndex();

describe('docs/README.md', () => {
  it('finds the pages under docs/', () => {
    expect(pages).toContain('architecture.md');
  });

  it.each(pages)('links %s', (page) => {
    expect(linked).toContain(page);
  });

  it.each([...linked])('links %s, which exists', (target) => {
    expect(existsSync(join(DOCS, target))).toBe(true);
  });
});
