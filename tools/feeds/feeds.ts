import { withDatabase } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { MAX_REST_RATIO, parseRestRatio } from '../common/rest-ratio';
import { readdirSync, statSync } from 'node:fs';
import { FEEDS, type FeedName } from './feed';
import { syncFeeds } from './sync';
import { DEFAULT_CARDMARKET_GAMES, parseCardmarketGames } from './cardmarket/cardmarket-sync';
import { parseEcbFiles } from './ecb/ecb-sync';
import { DEFAULT_POLITENESS } from './polite-client';
import { EVERY_TCGCSV_GAME, readTcgcsvGames } from './tcgcsv/tcgcsv-games';

const USAGE = `usage: npm run feeds -- sync [--feeds mtgjson,scryfall,tcgcsv,cardmarket,ecb] [--from DIR] [--dir DIR]
                                  [--compression gz|xz|bz2] [--resync] [--rest-ratio 0-${MAX_REST_RATIO}]

Brings the public feeds into the catalogue: MTGJSON v5 AllPrintings (Magic's sets, cards, ids),
TcgplayerSkus (variants with their real SKUs) and AllPrices (90 days of TCGplayer NA and Cardmarket
EU prices), Scryfall's default_cards (Scryfall ids, today's prices as quotes), and TCGCSV's daily
dump of TCGplayer (the configured games' sets, cards and today's NA market prices), and Cardmarket's
daily price guide (EU trend prices of the printings MTGJSON gives a Cardmarket id), and the ECB's
euro foreign exchange reference rates (what v2's currency= converts with).
  --feeds        which feeds (default: all; with --from, tcgcsv only when DIR has dated folders and
                 cardmarket only when DIR has a price_guide_<idGame>.json, ecb only when it has an
                 eurofxref-daily.xml, eurofxref-hist-90d.xml or eurofxref-hist.xml)
  --from DIR     read the files from DIR (AllPrintings.json[.gz|.xz|.bz2], …, default-cards*.json[.gz],
                 TCGCSV dumps in its archive layout DIR/YYYY-MM-DD/<categoryId>/<groupId>/prices
                 or as its archive files DIR/prices-YYYY-MM-DD.ppmd.7z, back-filled in date order)
                 instead of downloading them; a <file>.sha256 is checked. --from FILE takes one
                 TCGCSV archive file (prices-YYYY-MM-DD.ppmd.7z) alone
  --dir DIR      where downloads are kept between runs and unmatched rows are written
                 (default: FEEDS_DIR, else .feeds)
  --compression  MTGJSON's compression to download (default gz)
  --resync       TCGCSV: apply every group again, also those whose same documents a sync already
                 applied in full (by default they are skipped by their digest)
  --rest-ratio   0-${MAX_REST_RATIO} (default: FEEDS_REST_RATIO, else 0): after each batch written (TCGCSV: each
                 group), rest this many times as long as it took (a sync beside serving traffic:
                 3 makes its writes take four times as long, with a quarter of the load)
Base URLs: MTGJSON_BASE_URL (default https://mtgjson.com/api/v5), SCRYFALL_BULK_URL
(default https://api.scryfall.com/bulk-data), TCGCSV_BASE_URL (default https://tcgcsv.com).
TCGCSV_GAMES: a JSON file of the games to sync (default: every category TCGCSV lists but Magic,
comics and supplies; tools/feeds/tcgcsv/tcgcsv-games.ts);
TCGCSV_CONCURRENCY (default 2) and TCGCSV_PAUSE_MS (default 250) set how hard TCGCSV is pressed.
CARDMARKET_GAMES (default 1:magic-the-gathering) and CARDMARKET_BASE_URL (default
https://downloads.s3.cardmarket.com/productCatalog) choose Cardmarket's price guides.
ECB_FILES (default daily; 90d or all back-fill, e.g. 90d,daily) and ECB_BASE_URL (default
https://www.ecb.europa.eu/stats/eurofxref) choose the ECB's rate files. Exit code 0 when every file was imported, 1 when one
failed or was skipped (the others are imported), 2 on a usage or database error.`;

async function main(): Promise<number> {
  const { positional, options } = parseArgs(process.argv.slice(2));
  const feedsOption = options.get('feeds');
  const from = options.get('from');
  const feeds = (typeof feedsOption === 'string' ? feedsOption.split(',') : defaultFeeds(from)).map((f) =>
    f.trim(),
  );
  const dir = options.get('dir') ?? process.env['FEEDS_DIR'] ?? '.feeds';
  const compression = options.get('compression') ?? 'gz';
  // --rest-ratio wins; an empty FEEDS_REST_RATIO is unset (compose passes an unset one on empty).
  const restRatio = parseRestRatio(
    options.get('rest-ratio') ?? (process.env['FEEDS_REST_RATIO'] || undefined),
  );
  if (restRatio === undefined) {
    const given = options.has('rest-ratio') ? '--rest-ratio' : 'FEEDS_REST_RATIO';
    process.stderr.write(`${given} must be a number from 0 to ${MAX_REST_RATIO}\n\n${USAGE}\n`);
    return 2;
  }
  if (
    positional[0] !== 'sync' ||
    positional.length !== 1 ||
    feeds.length === 0 ||
    !feeds.every((f): f is FeedName => (FEEDS as readonly string[]).includes(f)) ||
    from === true ||
    dir === true ||
    (options.has('resync') && options.get('resync') !== true) ||
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
      restRatio,
      cardmarket: {
        games: process.env['CARDMARKET_GAMES']
          ? parseCardmarketGames(process.env['CARDMARKET_GAMES'])
          : DEFAULT_CARDMARKET_GAMES,
        baseUrl: process.env['CARDMARKET_BASE_URL'],
      },
      ecb: {
        files: process.env['ECB_FILES'] ? parseEcbFiles(process.env['ECB_FILES']) : undefined,
        baseUrl: process.env['ECB_BASE_URL'],
      },
      tcgcsv: {
        games: process.env['TCGCSV_GAMES'] ? readTcgcsvGames(process.env['TCGCSV_GAMES']) : EVERY_TCGCSV_GAME,
        baseUrl: process.env['TCGCSV_BASE_URL'],
        resync: options.get('resync') === true,
        politeness: {
          ...DEFAULT_POLITENESS,
          concurrency: boundedInt('TCGCSV_CONCURRENCY', DEFAULT_POLITENESS.concurrency, 1, 8),
          pauseMs: boundedInt('TCGCSV_PAUSE_MS', DEFAULT_POLITENESS.pauseMs, 0, 60_000),
        },
      },
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

/**
 * Every feed; reading from a folder, TCGCSV only when the folder holds its dated dumps,
 * Cardmarket only when it holds a price guide and the ECB only when it holds one of its files.
 */
function defaultFeeds(from: string | true | undefined): string[] {
  if (typeof from !== 'string') return [...FEEDS];
  // One of TCGCSV's archive files, named as published.
  if (statSync(from).isFile()) return ['tcgcsv'];
  const entries = readdirSync(from);
  const dated = entries.some((e) => /^(\d{4}-\d{2}-\d{2}|prices-\d{4}-\d{2}-\d{2}\.ppmd\.7z)$/.test(e));
  const guide = entries.some((e) => /^price_guide_\d+\.json$/.test(e));
  const rates = entries.some((e) => /^eurofxref-(daily|hist-90d|hist)\.xml$/.test(e));
  return FEEDS.filter(
    (f) => (f !== 'tcgcsv' || dated) && (f !== 'cardmarket' || guide) && (f !== 'ecb' || rates),
  );
}

function boundedInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

runTool('feeds', main);
