import { PriceIngestRepository } from '@tcg/persistence';
import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { stat } from 'node:fs/promises';
import { megabytes, progress } from '../common/progress';
import { MAX_REST_RATIO, parseRestRatio } from '../common/rest-ratio';
import { PriceImporter } from './price-importer';
import { FileFormat, formatOf, openRecords } from './read-records';

/** A batch is held in memory and written in one transaction: beyond this, it only costs memory. */
const MAX_BATCH_SIZE = 100_000;

const USAGE = `usage: npm run import-prices -- <file.ndjson|file.csv> [--format ndjson|csv] [--batch-size 1-${MAX_BATCH_SIZE}, default 5000]
  [--rest-ratio 0-${MAX_REST_RATIO}, default 0: after each batch, rest this many times as long as it took
   (an import beside serving traffic: 3 takes four times as long, with a quarter of the load)]

Each record: variant_id (UUID or slug) or vendor_sku, region, time (Unix seconds or ISO 8601),
price (decimal, in the region's currency), currency; a line or record is at most 64 KiB. Exit
code 0 when every row was applied, 1 when some rows were rejected (the valid ones are applied),
2 on a usage or database error.`;

async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const file = positional[0];
  const format = (options.get('format') as FileFormat | undefined) ?? (file ? formatOf(file) : undefined);
  const batchSize = Number(options.get('batch-size') ?? 5000);
  const restRatio = parseRestRatio(options.get('rest-ratio'));
  if (
    restRatio === undefined ||
    !file ||
    !format ||
    !['ndjson', 'csv'].includes(format) ||
    !Number.isInteger(batchSize) ||
    batchSize < 1 ||
    batchSize > MAX_BATCH_SIZE
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const started = Date.now();
  return withDatabase(async (ds) => {
    const importer = new PriceImporter(new PriceIngestRepository(ds));
    // The share of the file's bytes read gives the bar its percentage and time left; the rows
    // counted so far go in the structured lines.
    const bytes = (await stat(file)).size;
    const { records, bytesRead } = openRecords(file, format);
    const bar = progress({
      msg: 'import progress',
      label: `importing ${file}`,
      unit: 'MB',
      total: bytes,
      format: megabytes,
    });
    const report = await importer.run(records, {
      batchSize,
      nowSeconds: Math.floor(Date.now() / 1000),
      restRatio,
      onBatch: (p) => bar.update(Math.min(bytesRead(), bytes), { file, ...p }),
    });
    bar.end();
    for (const r of report.rejectedRows)
      log('warn', 'row rejected', { file, line: r.line, reason: r.reason });
    const { rejectedRows: _listed, ...summary } = report;
    log('info', 'import done', { file, ...summary, seconds: (Date.now() - started) / 1000 });
    return report.rejected > 0 ? 1 : 0;
  });
}

runTool('import', main);
