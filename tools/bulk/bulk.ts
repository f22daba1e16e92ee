import {
  allGames,
  bulkRowCount,
  dropUnfinishedSnapshots,
  pruneSeriesChanges,
  generateGameSnapshots,
  withBulkLock,
} from '@tcg/persistence';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { PoolClient } from 'pg';
import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { progress } from '../common/progress';

const USAGE = `usage: npm run bulk [-- --game <game id>]

Writes the bulk snapshots (gzip NDJSON and CSV) of every game, or of one, now, whatever their
age; api-v1 also writes them by itself after imports and daily. Waits while another instance or
tool is writing them. Exit code 0 when written, 2 on a usage or database error.`;

async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const game = options.get('game');
  if (positional.length > 0 || game === true || [...options.keys()].some((k) => k !== 'game')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  return withDatabase(async (ds) => {
    const runner = ds.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      const games = await allGames(client);
      if (game !== undefined && !games.includes(game)) {
        log('error', 'unknown game', { game, accepted: games });
        return 2;
      }
      await withBulkLock(client, true, async () => {
        // What a generation killed half-way left: none is under way while the lock is held.
        const unfinished = await dropUnfinishedSnapshots(client);
        if (unfinished > 0) log('info', 'bulk files left unfinished deleted', { files: unfinished });
        // The worker prunes the change log after its history files; where a scheduler runs this
        // instead, nothing else would, and the log would grow by every write.
        const pruned = await pruneSeriesChanges(client);
        if (pruned > 0) log('info', 'series change log pruned', { rows: pruned });
        for (const id of game === undefined ? games : [game]) {
          const started = Date.now();
          // What a service writing the same snapshot in the background would make its requests wait.
          const loop = monitorEventLoopDelay({ resolution: 1 });
          loop.enable();
          const bar = progress({
            msg: 'bulk progress',
            label: `writing the ${id} snapshots`,
            unit: 'rows',
            total: await bulkRowCount(client, id),
          });
          const result = await generateGameSnapshots(client, id, {
            onPage: (rows) => bar.update(rows, { game: id }),
          });
          bar.end();
          loop.disable();
          log('info', 'bulk snapshot written', {
            game: id,
            dataVersion: result.dataVersion,
            rows: result.rows,
            ndjsonBytes: result.files['ndjson.gz'].bytes,
            csvBytes: result.files['csv.gz'].bytes,
            seconds: (Date.now() - started) / 1000,
            eventLoopDelayMs: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
          });
        }
      });
      return 0;
    } finally {
      await runner.release();
    }
  }, 1);
}

runTool('bulk', main);
