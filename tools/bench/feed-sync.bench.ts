/**
 * The feed sync at scale (issue 23): generates MTGJSON-shaped AllPrintings, TcgplayerSkus and
 * AllPrices files for `--cards` cards (default 20,000, in sets of 500; 10 SKUs each; 90 days of
 * prices from every provider, as the published file has), then runs the built CLI
 * (`feeds sync --from`) twice into a fresh database: the first sync writes everything, the second
 * must write nothing. Reports, per file and run, the rows, seconds, rows/s and MB/s, the CLI's
 * peak RSS, and whether the second run left the data version as it was.
 *
 *   npm run bench:feed-sync [-- --cards 20000] [--dir /tmp] [--database tcg_bench_feeds] [--keep]
 *
 * `--keep` leaves the generated files (in `<dir>/feed-sync-bench-<pid>/from`) for a profile.
 *
 * The CLI runs in its own process (the one measured); PostgreSQL is DATABASE_URL's server.
 */
import { createGzip } from 'node:zlib';
import { createReadStream, createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import { log, runTool } from '../common/log';
import { dataVersion, feedBenchSetup, runFeedsCli, syncFigures } from './feeds-cli';
import { ninetyDayCard, writeDataFile } from './feed-files';
import { seededRandom } from './sampling';
import { formatTable, num } from './table';

const CARDS_PER_SET = 500;
const CONDITIONS = ['NEAR_MINT', 'LIGHTLY_PLAYED', 'MODERATELY_PLAYED', 'HEAVILY_PLAYED', 'DAMAGED'];

const uuidOf = (i: number) => `${i.toString(16).padStart(8, '0')}-0000-5000-8000-000000000000`;
const setCode = (s: number) => `B${s.toString(36).toUpperCase().padStart(3, '0')}`;

/** `{"data": {<set code>: <set>, …}}` with `cards` cards in sets of 500. */
async function writeAllPrintings(file: string, cards: number): Promise<void> {
  const sets = Math.ceil(cards / CARDS_PER_SET);
  await writeDataFile(file, sets, (s) => {
    const code = setCode(s);
    const members: string[] = [];
    for (let i = s * CARDS_PER_SET; i < Math.min(cards, (s + 1) * CARDS_PER_SET); i++)
      members.push(
        JSON.stringify({
          finishes: ['nonfoil', 'foil'],
          foreignData: [],
          identifiers: {
            scryfallId: uuidOf(i).replace('5000', '4000'),
            tcgplayerProductId: String(500000 + i),
          },
          language: 'English',
          layout: 'normal',
          name: `Bench Card ${i}`,
          number: String(i - s * CARDS_PER_SET + 1),
          rarity: ['common', 'uncommon', 'rare', 'mythic'][i % 4],
          setCode: code,
          type: 'Creature — Bench',
          uuid: uuidOf(i),
        }),
      );
    return [
      code,
      `{"cards": [${members.join(', ')}], "code": "${code}", "isOnlineOnly": false, "name": "Bench Set ${code}", ` +
        `"releaseDate": "2026-01-01", "sealedProduct": [], "type": "expansion"}`,
    ];
  });
}

/** `{"data": {<uuid>: [10 SKUs]}}`: five conditions × two printings, English. */
async function writeTcgplayerSkus(file: string, cards: number): Promise<void> {
  await writeDataFile(file, cards, (i) => [
    uuidOf(i),
    JSON.stringify(
      ['NON_FOIL', 'FOIL'].flatMap((printing, p) =>
        CONDITIONS.map((condition, c) => ({
          condition,
          language: 'ENGLISH',
          printing,
          productId: String(500000 + i),
          skuId: String(10_000_000 + i * 10 + p * 5 + c),
        })),
      ),
    ),
  ]);
}

async function gzip(file: string): Promise<void> {
  await pipeline(createReadStream(file), createGzip({ level: 6 }), createWriteStream(`${file}.gz`));
  rmSync(file);
}

interface FileLine {
  file: string;
  status: string;
  rowsRead: number;
  seconds: number;
  observations?: number;
}

async function main(): Promise<number> {
  const setup = await feedBenchSetup('feed-sync', 'cards', 'tcg_bench_feeds');
  if (!setup) return 2;
  const { count: cards, dir, options, url } = setup;

  mkdirSync(dir, { recursive: true });
  const from = join(dir, 'from');
  mkdirSync(from, { recursive: true });
  try {
    log('info', 'writing the feed files', { cards, dir: from });
    const random = seededRandom(23);
    await writeAllPrintings(join(from, 'AllPrintings.json'), cards);
    await writeTcgplayerSkus(join(from, 'TcgplayerSkus.json'), cards);
    await writeDataFile(join(from, 'AllPrices.json'), cards, (i) => [uuidOf(i), ninetyDayCard(random)]);
    const sizes: Record<string, number> = {};
    for (const f of ['AllPrintings.json', 'TcgplayerSkus.json', 'AllPrices.json']) {
      sizes[f] = statSync(join(from, f)).size;
      await gzip(join(from, f));
    }

    const rows: string[][] = [];
    const versions: number[] = [];
    for (const run of ['first', 'second']) {
      const result = sync(url, from, join(dir, 'cache'));
      versions.push(await dataVersion(url));
      for (const f of result.files) {
        const json = sizes[f.file.replace(/\.gz$/, '')] ?? 0;
        rows.push([
          run,
          f.file,
          f.status,
          num(f.rowsRead),
          num(f.observations ?? 0),
          f.seconds.toFixed(1),
          num(f.rowsRead / f.seconds),
          (json / 1e6 / f.seconds).toFixed(1),
        ]);
      }
      rows.push([
        run,
        'whole sync',
        '',
        '',
        '',
        result.seconds.toFixed(1),
        '',
        `peak RSS ${result.peakRssMb} MB`,
      ]);
    }
    process.stdout.write(
      `\nfeed sync, ${num(cards)} cards (${num(Object.values(sizes).reduce((a, b) => a + b, 0) / 1e6)} MB of JSON)\n\n` +
        formatTable(
          ['run', 'file', 'status', 'rows', 'observations', 's', 'rows/s', 'MB/s (JSON)'],
          rows,
          [0, 1, 2],
        ) +
        `\ndata version after the first sync ${versions[0]}, after the second ${versions[1]}` +
        (versions[0] === versions[1] ? ' (unchanged)\n' : ' (CHANGED: the second sync wrote)\n'),
    );
    return versions[0] === versions[1] ? 0 : 1;
  } finally {
    if (options.get('keep') === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the built CLI (its own process); returns its per-file lines and its last line's figures. */
function sync(
  url: string,
  from: string,
  cache: string,
): { files: FileLine[]; peakRssMb: number; seconds: number } {
  const lines = runFeedsCli(url, ['--feeds', 'mtgjson', '--from', from, '--dir', cache]);
  return {
    files: lines.filter((l) => l['msg'] === 'feed file') as unknown as FileLine[],
    ...syncFigures(lines),
  };
}

runTool('bench:feed-sync', main);
