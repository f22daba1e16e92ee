import { workerDatabaseUrl } from '@tcg/persistence/testing';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { getJson } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../../..');
/** The built feeds CLI, as the deployment runs it (`npm run build` first). */
const CLI = join(ROOT, 'dist/tools/feeds/feeds.js');

/** tools/feeds/fixtures: a folder per feed, each with a README saying where its files come from. */
export const FEED_FIXTURES = join(ROOT, 'tools/feeds/fixtures');

/**
 * `feeds sync <args>` by the built CLI into this worker's database, with nothing of this process's
 * environment but PATH (and `env`): its output, or its failure carrying the exit `code`.
 */
export function syncFeeds(args: readonly string[], env: Record<string, string> = {}) {
  return run(process.execPath, [CLI, 'sync', ...args], {
    env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: workerDatabaseUrl(), ...env },
  });
}

/**
 * A new temporary directory (its name starting `prefix`) holding a copy of each file: under its own
 * name, or of `[file, as]` under `as`.
 */
export async function copiedInto(
  prefix: string,
  files: readonly (string | readonly [file: string, as: string])[],
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  for (const entry of files) {
    const [file, as] = typeof entry === 'string' ? [entry, basename(entry)] : entry;
    await copyFile(file, join(dir, as));
  }
  return dir;
}

/** The stack over what a describe block synced, with a key to call it. */
export interface SyncedGateway {
  readonly stack: Stack;
  /** An enterprise key: no plan limit gets in the way. */
  readonly key: string;
  /** The directory the sync read from, removed after the block. */
  readonly dir: string;
  /** `getJson` of a path through the gateway with `key`. */
  get<T>(path: string): Promise<T>;
}

/**
 * For a describe block: before its tests `sync` (which fills the database and gives the temporary
 * directory it read from), then the stack started and a key made; after them, the stack closed and
 * the directory removed.
 */
export function useSyncedGateway(sync: () => Promise<string>): SyncedGateway {
  let stack: Stack | undefined;
  let key = '';
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await sync();
    stack = await startStack();
    key = await newKey('enterprise');
  });
  afterAll(async () => {
    await stack?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  const started = (): Stack => {
    if (stack === undefined) throw new Error('the stack is started in beforeAll');
    return stack;
  };
  return {
    get stack() {
      return started();
    },
    get key() {
      return key;
    },
    get dir() {
      if (dir === undefined) throw new Error('the sync runs in beforeAll');
      return dir;
    },
    get: <T>(path: string) => getJson<T>(`${started().gatewayUrl}${path}`, key),
  };
}
