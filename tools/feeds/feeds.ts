import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { FEEDS, syncFeeds, type FeedName } from './sync';

const USAGE = `usage: npm run feeds -- sync [--feeds mtgjson,scryfall] [--from DIR] [--dir DIR] [--compression gz|xz|bz2]

Brings the public Magic feeds into the catalogue: MTGJSON v5 AllPrintings (sets, cards, ids),
TcgplayerSkus (variants with their real SKUs) and AllPrices (90 days of TCGplayer NA and Cardmarket
EU prices), and Scryfall's default_cards (Scryfall ids, today's prices as quotes).
  --feeds        which feeds (default: both)
  --from DIR     read the files from DIR (AllPrintings.json[.gz|.xz|.bz2], …, default-cards*.json[.gz])
                 instead of downloading them; a <file>.sha256 beside a file is checked
  --dir DIR      where downloads are kept between runs and unmatched rows are written
                 (default: FEEDS_DIR, else .feeds)
  --compression  MTGJSON's compression to download (default gz)
Base URLs: MTGJSON_BASE_URL (default https://mtgjson.com/api/v5), SCRYFALL_BULK_URL
(default https://api.scryfall.com/bulk-data). Exit code 0 when every file was imported, 1 when one
failed or was skipped (the others are imported), 2 on a usage or database error.`;

async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const feedsOption = options.get('feeds');
  const feeds = (typeof feedsOption === 'string' ? feedsOption.split(',') : [...FEEDS]).map((f) => f.trim());
  const from = options.get('from');
  const dir = options.get('dir') ?? process.env['FEEDS_DIR'] ?? '.feeds';
  const compression = options.get('compression') ?? 'gz';
  if (
    positional[0] !== 'sync' ||
    positional.length !== 1 ||
    feeds.length === 0 ||
    !feeds.every((f): f is FeedName => (FEEDS as readonly string[]).includes(f)) ||
    from === true ||
    dir === true ||
    !['gz', 'xz', 'bz2'].includes(String(compression))
  ) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const started = Date.now();
  return withDatabase(async (ds) => {
    const report = await syncFeeds(ds, {
      feeds,
      dir,
      from,
      mtgjsonBaseUrl: process.env['MTGJSON_BASE_URL'],
      scryfallBulkUrl: process.env['SCRYFALL_BULK_URL'],
      mtgjsonCompression: `.${compression}` as '.gz' | '.xz' | '.bz2',
    });
    for (const f of report.files) {
      const { reasons: _reasons, details: _details, ...line } = f;
      log(f.status === 'imported' ? 'info' : 'error', 'feed file', line);
    }
    log('info', 'feeds sync done', {
      ok: report.ok,
      seconds: (Date.now() - started) / 1000,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    });
    return report.ok ? 0 : 1;
  });
}

runTool('feeds', main);
