/**
 * The TCGCSV sync at the marketplace's full size (issue 36): generates three days of a dump with the
 * shape of TCGCSV's archive of 2025-10-20 (marketplace-shape.ts: 85 categories, ~486k price rows a
 * day, Magic ~150k; `--scale` multiplies every count) in the layout `--from` reads, then runs the
 * built CLI (`feeds sync --feeds tcgcsv --from`, its own process) into a fresh database:
 *
 * 1. day 1 from empty (every category's catalogue and first prices);
 * 2. the daily sync: day 2 added (4 prices in 10 moved, the rest as they were), then day 3 alike;
 * 3. a no-op re-sync of every day (must write nothing: the data version stays);
 * 4. a summary refresh on its own, each view timed;
 * 5. the database's size after each day, and its largest relations.
 *
 * After each sync (and outside its time) the database is vacuumed and analysed, as autovacuum would
 * do in production: a CI server may run with autovacuum off (this machine's does), and the size a
 * day of history adds is then read from day 2 to day 3, once day 2's dead row versions are free for
 * day 3 to reuse.
 *
 * Every category is configured (TCGCSV_GAMES), Magic's too, so that the rows synced are the
 * archive's; in production Magic comes from MTGJSON instead.
 *
 *   npm run bench:marketplace [-- --scale 1] [--dir /tmp] [--database tcg_bench_marketplace] [--keep]
 *
 * PostgreSQL is DATABASE_URL's server.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUMMARY_VIEWS } from '@tcg/persistence';
import { log, parseArgs, runTool } from '../common/log';
import { readMtgJsonSets } from '../loader/catalogue/magic-source';
import { withClient } from './bench-databases';
import { dataVersion, freshDatabase, syncTcgcsvFrom, tcgcsvEnvelope, tcgcsvPrice } from './feeds-cli';
import {
  ARCHIVE_MARKET_PRICES,
  ARCHIVE_PRICE_ROWS,
  type BenchCategory,
  marketplaceShape,
} from './marketplace-shape';
import { seededRandom } from './sampling';
import { bytes, formatTable, num } from './table';

const DAYS = ['2025-10-20', '2025-10-21', '2025-10-22'];
const NULL_MARKET = 1 - ARCHIVE_MARKET_PRICES / ARCHIVE_PRICE_ROWS;
const MOVED_ON_DAY_2 = 0.4;
const TARGETS = { first: 30 * 60, daily: 10 * 60, noop: 2 * 60, refresh: 2 * 60, rssMb: 1024 };

/** One day's dump of every category under `<from>/<day>/`; returns the price rows written. */
function writeDay(from: string, day: string, categories: readonly BenchCategory[], dayIndex: number): number {
  const root = join(from, day);
  mkdirSync(root, { recursive: true });
  writeFileSync(
    join(root, 'categories'),
    tcgcsvEnvelope(
      categories.map((c) => ({
        categoryId: c.categoryId,
        name: c.name,
        displayName: c.name,
        modifiedOn: `${day}T20:00:00`,
      })),
    ),
  );
  let nextGroup = 10_000;
  let nextProduct = 1_000_000;
  let rows = 0;
  for (const c of categories) {
    // Product and group ids depend on the category's place only, so both days name the same ones.
    const random = seededRandom(c.categoryId * 7 + dayIndex);
    const groups = Math.ceil(c.products / c.productsPerGroup);
    const groupIds = Array.from({ length: groups }, (_, g) => nextGroup + g);
    nextGroup += groups;
    mkdirSync(join(root, String(c.categoryId)), { recursive: true });
    writeFileSync(
      join(root, String(c.categoryId), 'groups'),
      tcgcsvEnvelope(
        groupIds.map((groupId, g) => ({
          groupId,
          name: `${c.name} Expansion ${g + 1}`,
          abbreviation: `X${g + 1}`,
          isSupplemental: false,
          publishedOn: '2024-01-01T00:00:00',
          modifiedOn: `${day}T18:00:00`,
          categoryId: c.categoryId,
        })),
      ),
    );
    for (const [g, groupId] of groupIds.entries()) {
      const dir = join(root, String(c.categoryId), String(groupId));
      mkdirSync(dir, { recursive: true });
      const count = Math.min(c.productsPerGroup, c.products - g * c.productsPerGroup);
      const ids = Array.from({ length: count }, (_, k) => nextProduct + g * c.productsPerGroup + k);
      writeFileSync(
        join(dir, 'products'),
        tcgcsvEnvelope(ids.map((id, k) => product(c, groupId, id, k, day))),
      );
      const prices = ids.flatMap((id) =>
        c.printings.map((subTypeName, p) => {
          const base = 0.1 + ((id * (p + 1)) % 5000) / 100;
          const moved = dayIndex > 0 && (id + p) % 10 < MOVED_ON_DAY_2 * 10;
          const market =
            random() < NULL_MARKET ? null : Math.round(base * (moved ? 1 + dayIndex * 0.03 : 1) * 100) / 100;
          return tcgcsvPrice(id, subTypeName, market);
        }),
      );
      rows += prices.length;
      writeFileSync(join(dir, 'prices'), tcgcsvEnvelope(prices, false));
    }
    nextProduct += groups * c.productsPerGroup;
  }
  return rows;
}

let realNames: readonly string[] | undefined;

/**
 * A product's name: a real card name, from the packaged MTGJSON (32,519 printings of 16,976 names,
 * reprints kept), picked by product id so every day names a product alike. A search then finds a
 * word as often as a real catalogue has it ("dragon" in 109 names of 16,976), in every category;
 * made-up names (`<Category> Card <id>`) matched one word in every card of a category.
 */
function productName(id: number): string {
  realNames ??= [...readMtgJsonSets().values()].flatMap((s) => s.cards.map((card) => card.name));
  return realNames[(id * 7919) % realNames.length]!;
}

function product(c: BenchCategory, groupId: number, id: number, k: number, day: string): unknown {
  const name = productName(id);
  return {
    productId: id,
    name,
    cleanName: name,
    imageUrl: `https://tcgplayer-cdn.tcgplayer.com/product/${id}_200w.jpg`,
    categoryId: c.categoryId,
    groupId,
    url: `https://www.tcgplayer.com/product/${id}/card-${id}`,
    modifiedOn: `${day}T09:00:00`,
    imageCount: 1,
    presaleInfo: { isPresale: false, releasedOn: null, note: null },
    extendedData: [
      { name: 'Number', displayName: 'Card Number', value: `${k + 1}/${c.productsPerGroup}` },
      { name: 'Rarity', displayName: 'Rarity', value: ['Common', 'Uncommon', 'Rare', 'Super Rare'][k % 4] },
    ],
  };
}

interface Run {
  readonly label: string;
  readonly seconds: number;
  readonly peakRssMb: number;
  readonly rows: number;
  readonly observations: number;
  readonly refreshSeconds: number;
  readonly version: number;
  readonly target: number;
}

async function main(): Promise<number> {
  const { options } = parseArgs(process.argv.slice(2));
  const scale = Number(options.get('scale') ?? 1);
  const database = String(options.get('database') ?? 'tcg_bench_marketplace');
  const server = process.env['DATABASE_URL'];
  if (!server || !(scale > 0 && scale <= 4) || !/^[a-z_][a-z0-9_]{0,62}$/.test(database)) {
    process.stderr.write(
      'usage: DATABASE_URL=… npm run bench:marketplace -- [--scale 1] [--dir /tmp] [--database name] [--keep]\n',
    );
    return 2;
  }
  const dir = join(String(options.get('dir') ?? '/tmp'), `marketplace-bench-${process.pid}`);
  const from = join(dir, 'from');
  const games = join(dir, 'games.json');
  const categories = marketplaceShape(scale);
  const url = await freshDatabase(server, database);
  mkdirSync(from, { recursive: true });
  writeFileSync(
    games,
    JSON.stringify(categories.map((c) => ({ category: c.categoryId, game: c.slug, name: c.name }))),
  );
  try {
    const runs: Run[] = [];
    const sizes: { label: string; bytes: number }[] = [];
    const step = async (label: string, target: number) => {
      const figures = syncTcgcsvFrom(url, from, dir, games);
      runs.push({ label, ...figures, version: await dataVersion(url), target });
      log('info', 'marketplace bench step done', { ...runs.at(-1) });
      const started = performance.now();
      await withClient(url, (c) => c.query('VACUUM (ANALYZE)'));
      log('info', 'vacuumed and analysed (not counted)', { seconds: (performance.now() - started) / 1000 });
    };

    const rows1 = writeDay(from, DAYS[0]!, categories, 0);
    log('info', 'day 1 written', { categories: categories.length, priceRows: rows1, dir: from });
    await step('day 1 from empty', TARGETS.first);
    sizes.push({ label: 'after day 1', bytes: await databaseSize(url) });

    for (const [i, day] of DAYS.entries()) {
      if (i === 0) continue;
      const rows = writeDay(from, day, categories, i);
      log('info', `day ${i + 1} written`, { priceRows: rows });
      await step(`daily: day ${i + 1} added`, TARGETS.daily);
      sizes.push({ label: `after day ${i + 1}`, bytes: await databaseSize(url) });
    }

    await step('no-op re-sync', TARGETS.noop);
    const refresh = await timedRefresh(url);
    const largest = await largestRelations(url);

    const ok = (seconds: number, target: number) => (seconds <= target ? 'yes' : 'NO');
    const totalRefresh = refresh.reduce((a, r) => a + r.seconds, 0);
    const daily = runs.at(-2)!;
    process.stdout.write(
      `\nTCGCSV sync at the marketplace's size × ${scale}: ${categories.length} categories, ` +
        `${num(rows1)} price rows a day, ${num(categories.reduce((a, c) => a + c.products, 0))} products\n\n` +
        formatTable(
          [
            'run',
            's',
            'target s',
            'within',
            'rows read',
            'observations',
            'of it refresh s',
            'peak RSS MB',
            'data version',
          ],
          runs.map((r) => [
            r.label,
            r.seconds.toFixed(1),
            String(r.target),
            `${ok(r.seconds, r.target)}${r.peakRssMb > TARGETS.rssMb ? ' (RSS over 1 GB)' : ''}`,
            num(r.rows),
            num(r.observations),
            r.refreshSeconds.toFixed(1),
            String(r.peakRssMb),
            String(r.version),
          ]),
          [0, 3],
        ) +
        `\nthe daily's refresh (views its writes left stale): ${daily.refreshSeconds.toFixed(1)} s (target ` +
        `${TARGETS.refresh} s: ${ok(daily.refreshSeconds, TARGETS.refresh)}); every view on its own: ` +
        `${totalRefresh.toFixed(1)} s\n\n` +
        formatTable(
          ['view', 's'],
          refresh.map((r) => [r.view, r.seconds.toFixed(2)]),
          [0],
        ) +
        `\ndatabase size: ${sizes.map((s) => `${s.label} ${bytes(s.bytes)}`).join(', ')}; ` +
        `one day of history (day 2 to day 3) ${bytes(sizes[2]!.bytes - sizes[1]!.bytes)}\n\n` +
        formatTable(
          ['largest relations', 'size'],
          largest.map((r) => [r.name, bytes(r.bytes)]),
          [0],
        ) +
        '\n',
    );
    return runs.at(-2)!.version === runs.at(-1)!.version ? 0 : 1;
  } finally {
    if (options.get('keep') === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

async function databaseSize(url: string): Promise<number> {
  return withClient(url, async (c) =>
    Number((await c.query('SELECT pg_database_size(current_database())::bigint AS b')).rows[0].b),
  );
}

/** Every summary view refreshed as a sync's end refreshes them, each one timed. */
async function timedRefresh(url: string): Promise<{ view: string; seconds: number }[]> {
  return withClient(url, async (c) => {
    const out: { view: string; seconds: number }[] = [];
    for (const view of SUMMARY_VIEWS) {
      const started = process.hrtime.bigint();
      await c.query('SELECT tcg_refresh_summary($1)', [view]);
      out.push({ view, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    }
    return out;
  });
}

async function largestRelations(url: string): Promise<{ name: string; bytes: number }[]> {
  return withClient(url, async (c) =>
    (
      await c.query(
        `SELECT relname AS name, pg_total_relation_size(oid)::bigint AS bytes FROM pg_class
         WHERE relkind IN ('r', 'm') AND relnamespace = 'public'::regnamespace
         ORDER BY pg_total_relation_size(oid) DESC LIMIT 10`,
      )
    ).rows.map((r: { name: string; bytes: string }) => ({ name: r.name, bytes: Number(r.bytes) })),
  );
}

runTool('bench:marketplace', main);
