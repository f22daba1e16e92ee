import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

// Files and paths for the tools, without the database stack: a process that imports these (a
// bench's child, a load generator) does not load typeorm and pg with them.

/** The workspace root (the folder holding nx.json), from source or from dist/. */
export const REPO_ROOT = ((): string => {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

/** Written aside and renamed into place: a kill mid-write never leaves half a file. */
export async function writeFileAtomically(path: string, text: string, mode = 0o644): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, text, { mode });
  await rename(partial, path);
}
