/**
 * The MTGJSON AllPrices reader's memory and throughput (issue 23): it must parse a file of any
 * size in constant memory. Each measurement runs the reader in a child process of its own, on a
 * generated file, and reports bytes, prices, seconds, MB/s and the child's peak RSS:
 *
 * - the fixture's cards (tools/feeds/fixtures/mtgjson/AllPrices.json) written 1×, 100× and 10,000× under
 *   fresh uuids: the peak RSS must stay flat (within 20 %);
 * - the AllPrintings fixture's expansion written 20× and 2,000× under fresh set codes, each set with
 *   a booster configuration the reader must drop as it reads: flat too;
 * - an AllPrices-shaped file of `--mb` MB (default 1,024) whose cards carry 90 days of prices from
 *   every provider, as the published file does.
 *
 *   npm run bench:feed-parse [-- --mb 1024] [--dir /tmp]
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readAllPrices } from '../feeds/mtgjson/all-prices';
import { readAllPrintings } from '../feeds/mtgjson/all-printings';
import { REPO_ROOT } from '../common/files';
import { log, parseArgs, runTool } from '../common/log';
import { formatTable, num } from './table';
import { seededRandom } from './sampling';
import { ninetyDayCard, writeDataFile } from './feed-files';

interface Measured {
  readonly bytes: number;
  readonly prices: number;
  readonly seconds: number;
  readonly peakRssMb: number;
}

/** In the child: read the file, count what the reader yields (prices, or sets, cards and products), report what it took. */
async function child(file: string, reader: string): Promise<void> {
  const started = process.hrtime.bigint();
  const chunks = createReadStream(file, { highWaterMark: 1 << 16 });
  let prices = 0;
  for await (const _ of reader === 'printings' ? readAllPrintings(file, chunks) : readAllPrices(file, chunks))
    prices++;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const measured: Measured = {
    bytes: statSync(file).size,
    prices,
    seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`${JSON.stringify(measured)}\n`);
}

/** Writes `{"data": {<uuid>: <card>, …}, "meta": …}` with `count` cards from `cardAt`. */
async function writeAllPrices(file: string, count: number, cardAt: (i: number) => string): Promise<void> {
  await writeDataFile(file, count, (i) => [
    `${i.toString(16).padStart(8, '0')}-0000-5000-8000-000000000000`,
    cardAt(i),
  ]);
}

function measure(file: string, reader = 'prices'): Measured {
  const out = execFileSync(process.execPath, [__filename, '--child', file, '--reader', reader], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Measured;
}

async function main(): Promise<number> {
  const { options } = parseArgs(process.argv.slice(2));
  const childFile = options.get('child');
  if (typeof childFile === 'string') {
    await child(childFile, String(options.get('reader') ?? 'prices'));
    return 0;
  }
  const mb = Number(options.get('mb') ?? 1024);
  const dir = String(options.get('dir') ?? '/tmp');
  const fixture = JSON.parse(
    readFileSync(join(REPO_ROOT, 'tools', 'feeds', 'fixtures', 'mtgjson', 'AllPrices.json'), 'utf8'),
  ) as { data: Record<string, unknown> };
  const cards = Object.values(fixture.data).map((c) => JSON.stringify(c));
  const rows: string[][] = [];
  const results: Record<string, Measured> = {};
  const run = async (name: string, file: string, write: () => Promise<void>, reader = 'prices') => {
    log('info', 'writing', { name, file });
    await write();
    const m = measure(file, reader);
    rmSync(file);
    results[name] = m;
    log('info', 'measured', { name, ...m });
    rows.push([
      name,
      num(Math.round(m.bytes / 1e6)),
      num(m.prices),
      m.seconds.toFixed(1),
      (m.bytes / 1e6 / m.seconds).toFixed(1),
      num(Math.round(m.peakRssMb)),
    ]);
  };
  const fixtureFile = join(dir, `feed-parse-fixture-${process.pid}.json`);
  await run('fixture ×1', fixtureFile, () => writeAllPrices(fixtureFile, cards.length, (i) => cards[i]!));
  await run('fixture ×100', fixtureFile, () =>
    writeAllPrices(fixtureFile, cards.length * 100, (i) => cards[i % cards.length]!),
  );
  await run('fixture ×10,000', fixtureFile, () =>
    writeAllPrices(fixtureFile, cards.length * 10_000, (i) => cards[i % cards.length]!),
  );
  // AllPrintings: the fixture's expansion under fresh set codes and uuids, each set with a booster
  // configuration of 500 sheets (the member the reader must drop as it reads, or it accumulates).
  const printings = JSON.parse(
    readFileSync(join(REPO_ROOT, 'tools', 'feeds', 'fixtures', 'mtgjson', 'AllPrintings.json'), 'utf8'),
  ) as { data: Record<string, Record<string, unknown>> };
  const expansion = printings.data['TST']!;
  const sheets = Object.fromEntries(
    Array.from({ length: 500 }, (_, i) => [
      `sheet${i}`,
      { cards: { [`${i}`]: 1 }, foil: false, totalWeight: 1 },
    ]),
  );
  const setAt = (i: number) => {
    const code = `S${i.toString(36).toUpperCase().padStart(4, '0')}`;
    const text = JSON.stringify({
      ...expansion,
      booster: { default: { sheets } },
      code,
      name: `Set ${code}`,
    });
    return [
      code,
      text
        .replace(/"setCode":"TST"/g, `"setCode":"${code}"`)
        .replace(/-5[0-9a-f]{3}-/g, `-${code.slice(1)}-`),
    ] as const;
  };
  const printingsFile = join(dir, `feed-parse-printings-${process.pid}.json`);
  const writePrintings = (sets: number) => () => writeDataFile(printingsFile, sets, setAt);
  await run('AllPrintings fixture set ×20', printingsFile, writePrintings(20), 'printings');
  await run('AllPrintings fixture set ×2,000', printingsFile, writePrintings(2_000), 'printings');
  const random = seededRandom(23);
  const sample = ninetyDayCard(random);
  const count = Math.ceil((mb * 1e6) / (sample.length + 48));
  const bigFile = join(dir, `feed-parse-${mb}mb-${process.pid}.json`);
  await run(`AllPrices-shaped, ${mb} MB`, bigFile, () =>
    writeAllPrices(bigFile, count, () => ninetyDayCard(random)),
  );
  process.stdout.write(
    `${formatTable(['file', 'MB', 'prices', 'seconds', 'MB/s', 'peak RSS MB'], rows)}\n${JSON.stringify(results)}\n`,
  );
  const ratios = {
    // Below ~10 MB the peak is node and V8 reaching their working size, not the data: ×1 (2 KB)
    // 49 MB, ×100 (170 KB) 58-60 MB, ×10,000 (17 MB) 93 MB. From there on it must stay flat: the
    // `--mb` file (1 GB by default, 60 times ×10,000) against ×10,000.
    prices: results[`AllPrices-shaped, ${mb} MB`]!.peakRssMb / results['fixture ×10,000']!.peakRssMb,
    printings:
      results['AllPrintings fixture set ×2,000']!.peakRssMb /
      results['AllPrintings fixture set ×20']!.peakRssMb,
  };
  const flat = ratios.prices <= 1.2 && ratios.printings <= 1.2;
  log(
    flat ? 'info' : 'error',
    'peak RSS as the file grows (AllPrices --mb against fixture ×10,000, AllPrintings ×2,000 against ×20)',
    {
      prices: Number(ratios.prices.toFixed(3)),
      printings: Number(ratios.printings.toFixed(3)),
    },
  );
  return flat ? 0 : 1;
}

runTool('feed-parse', main);
