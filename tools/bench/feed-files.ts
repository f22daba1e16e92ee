import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

// Generated MTGJSON-shaped files for the feed benches (feed-parse, feed-sync).

/** Writes an MTGJSON file, `{"data": {<key>: <json>, …}, "meta": …}`, with `count` entries. */
export async function writeDataFile(
  file: string,
  count: number,
  entryAt: (i: number) => readonly [string, string],
): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"data": {');
  for (let i = 0; i < count; i++) {
    const [key, json] = entryAt(i);
    await write(`${i === 0 ? '' : ', '}"${key}": ${json}`);
  }
  await write('}, "meta": {"date": "2026-11-25", "version": "5.2.2+20261125"}}');
  out.end();
  await once(out, 'finish');
}

/** A card with 90 days of prices from every provider, platform, side and finish the model has. */
export function ninetyDayCard(random: () => number): string {
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
