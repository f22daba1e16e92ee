/**
 * A day's prices for every game of a bench database (see ingestADay), the daily sync that
 * `bench:api -- --during` measures the reads beside:
 *
 *   DATABASE_URL=postgres://…/tcg_bench_full node dist/tools/bench/ingest-day.js [--game <id>] [--rest-ratio 1] [--batch 300]
 *
 * It writes to the database it is given: run it on a bench copy. Exit code 0 when written, 2 on a
 * usage or database error.
 */
import { allGames, poolOf } from '@tcg/persistence';
import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { progress } from '../common/progress';
import { pacedBy, parseRestRatio, MAX_REST_RATIO } from '../common/rest-ratio';
import { DAY_BATCH, ingestADay, MAX_DAY_BATCH } from './day-of-prices';

const USAGE = `usage: node dist/tools/bench/ingest-day.js [--game <game id>] [--rest-ratio 0-${MAX_REST_RATIO}, default 0] [--batch 1-${MAX_DAY_BATCH}, default ${DAY_BATCH}]`;

async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const game = options.get('game');
  const restRatio = parseRestRatio(options.get('rest-ratio'));
  const batchText = options.get('batch') ?? String(DAY_BATCH);
  const batch = typeof batchText === 'string' && /^[0-9]{1,6}$/.test(batchText) ? Number(batchText) : 0;
  if (
    positional.length > 0 ||
    game === true ||
    restRatio === undefined ||
    batch < 1 ||
    batch > MAX_DAY_BATCH ||
    [...options.keys()].some((k) => k !== 'game' && k !== 'rest-ratio' && k !== 'batch')
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  return withDatabase(async (ds) => {
    const client = await poolOf(ds).connect();
    try {
      const games = typeof game === 'string' ? [game] : await allGames(client);
      const started = performance.now();
      let written = 0;
      for (const id of games) {
        const bar = progress({ msg: 'day ingest progress', label: `a day of ${id}`, unit: 'prices' });
        written += await ingestADay(
          ds,
          client,
          id,
          pacedBy(restRatio),
          (done, of) => bar.update(done, { game: id, of }),
          batch,
        );
        bar.end();
      }
      log('info', 'a day ingested', {
        games: games.length,
        prices: written,
        restRatio,
        batch,
        seconds: Math.round((performance.now() - started) / 100) / 10,
      });
      return 0;
    } finally {
      client.release();
    }
  }, 2);
}

runTool('ingest-day', main);
