/**
 * The MTGJSON AllPrices reader's memory and throughput (issue 23): it must parse a file of any
 * size in constant memory. Each measurement runs the reader in a child process of its own, on a
 * generated file, and reports bytes, prices, seconds, MB/s and the child's peak RSS:
 *
 * - the fixture's cards (tools/feeds/fixtures/mtgjson/AllPrices.json) written 1× and 100× under
 *   fresh uuids: the peak RSS must stay flat (within 20 %);
 * - an AllPrices-shaped file of `--mb` MB (default 1,024) whose cards carry 90 days of prices from
 *   every provider, as the published file does.
 *
 *   npm run bench:feed-parse [-- --mb 1024] [--dir /tmp]
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { readAllPrices } from '../feeds/mtgjson/all-prices';
import { REPO_ROOT } from '../common/database';
import { log, parseArgs, runTool } from '../common/log';
import { formatTable, num } from './table';
import { seededRandom } from './sampling';

interface Measured {
  readonly bytes: number;
  readonly prices: number;
  readonly seconds: number;
  readonly peakRssMb: number;
}

/** In the child: read the file, count its prices, report what it took. */
async function child(file: string): Promise<void> {
  const started = process.hrtime.bigint();
  let prices = 0;
  for await (const _ of readAllPrices(file, createReadStream(file, { highWaterMark: 1 << 16 }))) prices++;
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
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"data": {');
  for (let i = 0; i < count; i++) {
    const uuid = `${i.toString(16).padStart(8, '0')}-0000-5000-8000-000000000000`;
    await write(`${i === 0 ? '' : ', '}"${uuid}": ${cardAt(i)}`);
  }
  await write('}, "meta": {"date": "2026-11-25", "version": "5.2.2+20261125"}}');
  out.end();
  await once(out, 'finish');
}

/** A card with 90 days of prices from every provider, platform, side and finish the model has. */
function ninetyDayCard(random: () => number): string {
  const days = Array.from({ length: 90 }, (_, d) =>
    new Date(Date.UTC(2026, 7, 28 + d)).toISOString().slice(0, 10),
  );
  const series = (base: number) =>
    `{${days.map((d) => `"${d}": ${(base * (0.9 + random() * 0.2)).toFixed(2)}`).join(', ')}}`;
  const base = 0.1 + random() * 20;
  const list = (currency: string, buylist: boolean) =>
    `{${buylist ? `"buylist": {"normal": ${series(base / 2)}}, ` : ''}"currency": "${currency}", "retail": {"foil": ${series(base * 3)}, "normal": ${series(base)}}}`;
  return `{"mtgo": {"cardhoarder": {"currency": "USD", "retail": {"normal": ${series(base / 10)}}}}, "paper": {"cardkingdom": ${list('USD', true)}, "cardmarket": ${list('EUR', false)}, "tcgplayer": ${list('USD', true)}}}`;
}

function measure(file: string): Measured {
  const out = execFileSync(process.execPath, [__filename, '--child', file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Measured;
}

async function main(): Promise<number> {
  const { options } = parseArgs(process.argv.slice(2));
  const childFile = options.get('child');
  if (typeof childFile === 'string') {
    await child(childFile);
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
  const run = async (name: string, file: string, write: () => Promise<void>) => {
    log('info', 'writing', { name, file });
    await write();
    const m = measure(file);
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
  const flat = results['fixture ×100']!.peakRssMb / results['fixture ×1']!.peakRssMb;
  log(flat <= 1.2 ? 'info' : 'error', 'peak RSS ×100 against ×1', { ratio: Number(flat.toFixed(3)) });
  return flat <= 1.2 ? 0 : 1;
}

runTool('feed-parse', main);
