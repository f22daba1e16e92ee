import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readDataVersion } from '@tcg/persistence';
import { REPO_ROOT } from '../common/files';
import { parseArgs } from '../common/log';
import { databaseUrl, withClient } from './bench-databases';

/**
 * Runs the built feeds CLI (`feeds sync …`) in its own process, the one a bench measures, on the
 * database at `url`; returns its JSON log lines. Throws with its last output when it fails.
 */
export function runFeedsCli(
  url: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Record<string, unknown>[] {
  const child = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/tools/feeds/feeds.js'), 'sync', ...args], {
    env: { PATH: process.env['PATH'] ?? '', DATABASE_URL: url, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 256 << 20,
  });
  if (child.status !== 0) {
    process.stderr.write(child.stderr.slice(-4000));
    throw new Error(
      `the sync exited with ${child.status} (${child.signal ?? child.error?.message ?? 'no signal'})`,
    );
  }
  const lines = child.stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  if (!lines.some((l) => l['msg'] === 'feeds sync done')) {
    process.stderr.write(child.stderr.slice(-4000));
    throw new Error(
      `the sync exited with 0 but never said it was done (${child.stderr.length} bytes of log)`,
    );
  }
  return lines;
}

/** The figures of the CLI's last line: how long the whole sync took and its peak RSS. */
export function syncFigures(lines: readonly Record<string, unknown>[]): {
  seconds: number;
  peakRssMb: number;
} {
  const done = lines.find((l) => l['msg'] === 'feeds sync done')!;
  return { seconds: Number(done['seconds']), peakRssMb: Number(done['peakRssMb']) };
}

/** Drops and creates `database` on DATABASE_URL's server (`server`); returns its URL. The CLI migrates it. */
export async function freshDatabase(server: string, database: string): Promise<string> {
  await withClient(databaseUrl(server, 'postgres'), async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
  });
  return databaseUrl(server, database);
}

/** The database's data version: unchanged by a sync that wrote nothing. */
export async function dataVersion(url: string): Promise<number> {
  return withClient(url, readDataVersion);
}

/** A feed bench's command line: how many items to generate, where, and its fresh database. */
export interface FeedBenchSetup {
  readonly count: number;
  readonly dir: string;
  readonly options: ReadonlyMap<string, string | true>;
  /** The fresh database's URL (dropped and created again). */
  readonly url: string;
}

/**
 * Reads `--<count> N --dir D --database name` (and the rest into `options`) and makes the fresh
 * database; undefined, after printing the usage, when the line or DATABASE_URL is wrong.
 */
export async function feedBenchSetup(
  /** The npm script, `bench:<script>`; also names the bench's folder under `--dir`. */
  script: string,
  /** The option that sets how many items to generate (20,000 by default). */
  countOption: string,
  defaultDatabase: string,
  argv: readonly string[] = process.argv.slice(2),
): Promise<FeedBenchSetup | undefined> {
  const { options } = parseArgs(argv);
  const count = Number(options.get(countOption) ?? 20_000);
  const dir = join(String(options.get('dir') ?? '/tmp'), `${script}-bench-${process.pid}`);
  const database = String(options.get('database') ?? defaultDatabase);
  const server = process.env['DATABASE_URL'];
  if (!server || !Number.isInteger(count) || count < 1 || !/^[a-z_][a-z0-9_]{0,62}$/.test(database)) {
    process.stderr.write(
      `usage: DATABASE_URL=… npm run bench:${script} -- [--${countOption} N] [--dir D] [--database name]\n`,
    );
    return undefined;
  }
  return { count, dir, options, url: await freshDatabase(server, database) };
}

/** A TCGCSV document as TCGCSV publishes it: `totalItems` on listings, not on prices. */
export function tcgcsvEnvelope(results: unknown[], total = true): string {
  return JSON.stringify(
    total
      ? { totalItems: results.length, success: true, errors: [], results }
      : { success: true, errors: [], results },
  );
}

/** A TCGCSV price row for one printing of a product: low, mid and high fixed, the market price given. */
export function tcgcsvPrice(productId: number, subTypeName: string, marketPrice: number | null) {
  return {
    productId,
    lowPrice: 0.05,
    midPrice: 0.2,
    highPrice: 9.99,
    marketPrice,
    directLowPrice: null,
    subTypeName,
  };
}

/** What one TCGCSV sync of the built CLI did: its seconds and peak RSS, rows read, observations. */
export interface TcgcsvSyncFigures {
  readonly seconds: number;
  readonly peakRssMb: number;
  readonly rows: number;
  readonly observations: number;
  /** Of `seconds`, the summary refresh at the sync's end (0 when nothing was stale). */
  readonly refreshSeconds: number;
}

/** Runs the built CLI's TCGCSV sync of `from` with the games of `games` (TCGCSV_GAMES), in its own process. */
export function syncTcgcsvFrom(url: string, from: string, dir: string, games: string): TcgcsvSyncFigures {
  const lines = runFeedsCli(url, ['--feeds', 'tcgcsv', '--from', from, '--dir', join(dir, 'cache')], {
    TCGCSV_GAMES: games,
  });
  const files = lines.filter((l) => l['msg'] === 'feed file');
  return {
    ...syncFigures(lines),
    rows: files.reduce((a, f) => a + Number(f['rowsRead'] ?? 0), 0),
    observations: files.reduce((a, f) => a + Number(f['observations'] ?? 0), 0),
    refreshSeconds: Number(lines.find((l) => l['msg'] === 'summaries refreshed')?.['seconds'] ?? 0),
  };
}
