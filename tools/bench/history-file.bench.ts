/**
 * The history file (`history.ndjson.gz`, every variant's daily series) per game: written from
 * every stored month, then a day's prices ingested (every priced variant and region observed once
 * more, at now, through the importer's repository), then written again on the previous file, and
 * that file checked line for line against a whole read of the same data version.
 *
 *   DATABASE_URL=postgres://…/tcg_bench_full npm run bench:history -- [--game <id>]
 *
 * It writes to the database it is given (a day of prices, history files): run it on a bench copy.
 * The generations run without rest, one at a time, nothing else running; the table gives wall
 * time and the CPU seconds of this process and of PostgreSQL's processes.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { HISTORY_FORMAT } from '@tcg/domain';
import {
  allGames,
  generateGameHistory,
  poolOf,
  TypeOrmBulkSnapshotStore,
  type GameHistoryResult,
} from '@tcg/persistence';
import type { PoolClient } from 'pg';
import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { pacedBy } from '../common/rest-ratio';
import { ingestADay } from './day-of-prices';
import { CpuAccounting } from './cpu-time';
import { formatTable, num } from './table';

interface Measured {
  readonly result: GameHistoryResult;
  readonly seconds: number;
  readonly nodeCpu: number;
  readonly postgresCpu: number;
}

async function measured(client: PoolClient, gameId: string): Promise<Measured> {
  const cpu = new CpuAccounting();
  cpu.track('node', process.pid);
  const before = cpu.snapshot();
  const started = performance.now();
  const result = await generateGameHistory(client, gameId);
  const seconds = (performance.now() - started) / 1000;
  const used = CpuAccounting.perRequest(before, cpu.snapshot(), 1);
  return {
    result,
    seconds,
    nodeCpu: (used['node'] ?? 0) / 1e6,
    postgresCpu: (used['postgres'] ?? 0) / 1e6,
  };
}

/** The decompressed text's SHA-256 of the game's newest history file. */
async function textDigest(store: TypeOrmBulkSnapshotStore, gameId: string): Promise<string> {
  const s = await store.latest(gameId, HISTORY_FORMAT);
  if (!s) throw new Error(`${gameId} has no history file`);
  const parts: Buffer[] = [];
  for (let seq = 0; seq < s.chunks; seq++) parts.push((await store.readChunk(s.id, seq))!);
  return createHash('sha256')
    .update(gunzipSync(Buffer.concat(parts)))
    .digest('hex');
}

async function main(): Promise<number> {
  const { options } = parseArgs(process.argv.slice(2));
  const only = options.get('game');
  return withDatabase(async (ds) => {
    const store = new TypeOrmBulkSnapshotStore(ds);
    const client = await poolOf(ds).connect();
    const table: string[][] = [];
    let mismatches = 0;
    try {
      const games = typeof only === 'string' ? [only] : await allGames(client);
      for (const game of games) {
        await client.query(`DELETE FROM bulk_snapshots WHERE game_id = $1 AND format = $2`, [
          game,
          HISTORY_FORMAT,
        ]);
        const row = (what: string, m: Measured) => [
          game,
          what,
          num(m.result.lines),
          num(m.result.file.bytes / 1e6, 1),
          `${m.result.series.kept}/${m.result.series.extended}/${m.result.series.readWhole}`,
          num(m.seconds, 1),
          num(m.nodeCpu, 1),
          num(m.postgresCpu, 1),
        ];
        const whole = await measured(client, game);
        log('info', 'history file read whole', { game, seconds: whole.seconds });
        table.push(row('read whole', whole));
        const prices = await ingestADay(ds, client, game, pacedBy(0), (done, of) =>
          log('info', 'a day ingested', { game, done, of }),
        );
        const built = await measured(client, game);
        log('info', 'history file built on the previous one', { game, seconds: built.seconds });
        table.push(row(`on the previous, after ${num(prices)} prices`, built));
        const builtDigest = await textDigest(store, game);
        await client.query(`DELETE FROM bulk_snapshots WHERE game_id = $1 AND format = $2`, [
          game,
          HISTORY_FORMAT,
        ]);
        const check = await measured(client, game);
        table.push(row('read whole again (the check)', check));
        const same = builtDigest === (await textDigest(store, game));
        if (!same) mismatches++;
        log(same ? 'info' : 'error', 'history file built on the previous one checked', { game, same });
      }
    } finally {
      client.release();
    }
    process.stdout.write(
      `${formatTable(
        ['game', 'written', 'lines', 'MB', 'kept/extended/whole', 's', 'node CPU s', 'PostgreSQL CPU s'],
        table,
      )}\n`,
    );
    return mismatches === 0 ? 0 : 1;
  }, 2);
}

runTool('history-file', main);
