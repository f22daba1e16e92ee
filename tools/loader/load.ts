import { removeCatalogue, withSampleLoadLock } from '@tcg/persistence';
import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { CATALOGUE_SIZES, CatalogueSize } from './catalogue';
import { currentHour, loadSample, loadProgressReporter, removeInterruptedLoad } from './sample-loader';

const USAGE = 'usage: npm run load -- [--size small|medium|full] [--reset]';

/** Loads the sample catalogue and simulated prices into DATABASE_URL (or the embedded PostgreSQL). */
async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  if (options.has('help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const size = (options.get('size') ?? 'medium') as CatalogueSize;
  // Anything else is refused before the database is touched: a mistyped flag never starts a load.
  const unknown = [...positional, ...[...options.keys()].filter((k) => k !== 'size' && k !== 'reset')];
  if (
    !(size in CATALOGUE_SIZES) ||
    unknown.length > 0 ||
    (options.get('reset') !== undefined && options.get('reset') !== true)
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  return withDatabase((ds) =>
    // Under the lock a concurrent `npm start` waits for this load rather than judge it interrupted.
    withSampleLoadLock(ds, async () => {
      if (options.has('reset')) {
        await removeCatalogue(ds);
        log('info', 'catalogue and prices removed (--reset)');
      } else await removeInterruptedLoad(ds, size);
      log('info', 'loading sample', { size });
      const report = await loadSample(ds, size, { asOf: currentHour(), onProgress: loadProgressReporter() });
      log('info', 'load done', { ...report });
      return 0;
    }),
  );
}

runTool('load', main);
