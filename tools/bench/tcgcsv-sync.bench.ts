/**
 * The TCGCSV sync at the size of TCGplayer's Pokémon category (issue 25): generates a dump of
 * `--products` products (default 20,000, in groups of 100) × 3 printings (`Normal`, `Holofoil`,
 * `Reverse Holofoil`; one market price in ten null, as thin markets are) for two days in TCGCSV's
 * archive layout, then runs the built CLI (`feeds sync --feeds tcgcsv --from`, its own process)
 * three times into a fresh database: day 1 (catalogue and prices), days 1 and 2 (day 1 writes
 * nothing, day 2 one point per priced variant), and both again (nothing written). Reports each
 * run's seconds, rows, observations, the CLI's peak RSS and the data version after it.
 *
 *   npm run bench:tcgcsv-sync [-- --products 20000] [--dir /tmp] [--database tcg_bench_tcgcsv] [--keep]
 *
 * PostgreSQL is DATABASE_URL's server.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log, runTool } from '../common/log';
import { dataVersion, feedBenchSetup, syncTcgcsvFrom, tcgcsvEnvelope, tcgcsvPrice } from './feeds-cli';
import { seededRandom } from './sampling';
import { formatTable, num } from './table';

const PRODUCTS_PER_GROUP = 100;
const PRINTINGS = ['Normal', 'Holofoil', 'Reverse Holofoil'];
const CATEGORY = 3;
const DAYS = ['2026-11-25', '2026-11-26'];

/** One day's dump of the category under `<from>/<day>/`. */
function writeDay(from: string, day: string, products: number, dayIndex: number): void {
  const random = seededRandom(25 + dayIndex);
  const root = join(from, day);
  const groups = Math.ceil(products / PRODUCTS_PER_GROUP);
  mkdirSync(join(root, String(CATEGORY)), { recursive: true });
  writeFileSync(
    join(root, 'categories'),
    tcgcsvEnvelope([
      { categoryId: CATEGORY, name: 'Pokemon', displayName: 'Pokemon', modifiedOn: `${day}T20:00:00` },
    ]),
  );
  const groupRows = Array.from({ length: groups }, (_, g) => ({
    groupId: 10_000 + g,
    name: `Bench Expansion ${g}`,
    abbreviation: `BE${g}`,
    isSupplemental: false,
    publishedOn: '2024-01-01T00:00:00',
    modifiedOn: `${day}T18:00:00`,
    categoryId: CATEGORY,
  }));
  writeFileSync(join(root, String(CATEGORY), 'groups'), tcgcsvEnvelope(groupRows));
  for (let g = 0; g < groups; g++) {
    const dir = join(root, String(CATEGORY), String(10_000 + g));
    mkdirSync(dir, { recursive: true });
    const ids = Array.from(
      { length: Math.min(PRODUCTS_PER_GROUP, products - g * PRODUCTS_PER_GROUP) },
      (_, k) => 1_000_000 + g * PRODUCTS_PER_GROUP + k,
    );
    writeFileSync(
      join(dir, 'products'),
      tcgcsvEnvelope(
        ids.map((id, k) => ({
          productId: id,
          name: `Bench Monster ${id}`,
          cleanName: `Bench Monster ${id}`,
          imageUrl: `https://tcgplayer-cdn.tcgplayer.com/product/${id}_200w.jpg`,
          categoryId: CATEGORY,
          groupId: 10_000 + g,
          url: `https://www.tcgplayer.com/product/${id}/bench-monster`,
          modifiedOn: `${day}T09:00:00`,
          imageCount: 1,
          presaleInfo: { isPresale: false, releasedOn: null, note: null },
          extendedData: [
            { name: 'Number', displayName: 'Card Number', value: `${k + 1}/${PRODUCTS_PER_GROUP}` },
            {
              name: 'Rarity',
              displayName: 'Rarity',
              value: ['Common', 'Uncommon', 'Rare', 'Ultra Rare'][k % 4],
            },
            {
              name: 'CardText',
              displayName: 'Card Text',
              value: 'Deal 30 damage to 1 of your opponent’s Pokémon.',
            },
          ],
        })),
      ),
    );
    writeFileSync(
      join(dir, 'prices'),
      tcgcsvEnvelope(
        ids.flatMap((id) =>
          PRINTINGS.map((subTypeName, p) => {
            const market =
              random() < 0.1
                ? null
                : Math.round((0.1 + ((id * (p + 1)) % 5000) / 100) * (1 + dayIndex * 0.01) * 100) / 100;
            return tcgcsvPrice(id, subTypeName, market);
          }),
        ),
        false,
      ),
    );
  }
}

interface Run {
  label: string;
  seconds: number;
  peakRssMb: number;
  rows: number;
  observations: number;
  version: number;
}

async function main(): Promise<number> {
  const setup = await feedBenchSetup('tcgcsv-sync', 'products', 'tcg_bench_tcgcsv');
  if (!setup) return 2;
  const { count: products, dir, options, url } = setup;
  const from = join(dir, 'from');
  const games = join(dir, 'games.json');
  mkdirSync(from, { recursive: true });
  writeFileSync(games, JSON.stringify([{ category: CATEGORY, game: 'pokemon', name: 'Pokémon' }]));
  try {
    log('info', 'writing the dumps', { products, days: DAYS.length, dir: from });
    writeDay(from, DAYS[0]!, products, 0);
    const runs: Run[] = [];
    runs.push({
      label: 'day 1 (new catalogue)',
      ...syncTcgcsvFrom(url, from, dir, games),
      version: await dataVersion(url),
    });
    writeDay(from, DAYS[1]!, products, 1);
    runs.push({
      label: 'days 1 and 2 (+1 point a day)',
      ...syncTcgcsvFrom(url, from, dir, games),
      version: await dataVersion(url),
    });
    runs.push({
      label: 'days 1 and 2 again',
      ...syncTcgcsvFrom(url, from, dir, games),
      version: await dataVersion(url),
    });
    process.stdout.write(
      `\ntcgcsv sync, ${num(products)} products × ${PRINTINGS.length} printings in groups of ${PRODUCTS_PER_GROUP}\n\n` +
        formatTable(
          ['run', 's', 'rows read', 'observations', 'peak RSS MB', 'data version'],
          runs.map((r) => [
            r.label,
            r.seconds.toFixed(1),
            num(r.rows),
            num(r.observations),
            String(r.peakRssMb),
            String(r.version),
          ]),
          [0],
        ) +
        '\n',
    );
    return runs[1]!.version === runs[2]!.version ? 0 : 1;
  } finally {
    if (options.get('keep') === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

runTool('bench:tcgcsv-sync', main);
