import SevenZip from '7z-wasm';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  archiveDayOf,
  DEFAULT_ARCHIVE_LIMITS,
  extractArchive,
  listArchive,
  parseListing,
  TcgcsvArchiveError,
} from './tcgcsv-archive';

const FIXTURES = join(__dirname, '..', 'fixtures', 'tcgcsv');
const DAY = '2026-11-25';

/** Makes a 7z archive the way TCGCSV does (PPMd), of `paths` under `dir`. */
async function pack(dir: string, name: string, paths: string[], method = 'PPMd'): Promise<string> {
  const module = await SevenZip({ print: () => undefined, printErr: () => undefined });
  module.FS.mkdir('/w');
  module.FS.mount(module.NODEFS, { root: dir }, '/w');
  module.FS.chdir('/w');
  const code = module.callMain(['a', '-t7z', `-m0=${method}`, '-bsp0', '-bso0', name, ...paths]) as unknown;
  process.exitCode = undefined;
  if (code !== 0) throw new Error(`7-Zip could not pack ${name}: ${String(code)}`);
  return join(dir, name);
}

describe('TCGCSV archive files (prices-YYYY-MM-DD.ppmd.7z)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tcgcsv-archive-'));
    await cp(join(FIXTURES, DAY), join(dir, DAY), { recursive: true });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['prices-2025-10-20.ppmd.7z', '2025-10-20'],
    ['prices-2025-10-20.7z', undefined],
    ['2025-10-20.ppmd.7z', undefined],
    ['prices-2025-10-20.ppmd.7z.part', undefined],
  ])('names its day: %s', (name, day) => {
    expect(archiveDayOf(name)).toBe(day);
  });

  it('lists the day price documents and extracts only the categories asked for, byte for byte', async () => {
    // As TCGCSV publishes it: prices alone; the day's other documents are not in an archive.
    const file = await pack(dir, `prices-${DAY}.ppmd.7z`, [`${DAY}/*/*/prices`]);
    const listing = await listArchive(file);
    expect(listing).toMatchObject({ day: DAY, ignored: [] });
    expect(listing.prices.map((p) => `${p.categoryId}/${p.groupId}`)).toEqual([
      '3/3118',
      '3/3170',
      '62/2061',
    ]);

    const out = join(dir, 'out');
    const done = await extractArchive(file, listing, out, [62]);
    const original = await readFile(join(FIXTURES, DAY, '62', '2061', 'prices'));
    expect(done).toEqual({ files: 1, bytes: original.length });
    expect(await readFile(join(out, DAY, '62', '2061', 'prices'))).toEqual(original);
    await expect(readFile(join(out, DAY, '3', '3118', 'prices'))).rejects.toThrow(/ENOENT/);
    // 7-Zip's exit codes are not the process's.
    expect(process.exitCode).toBeUndefined();
  });

  it('names files outside the layout and never extracts them', async () => {
    await writeFile(join(dir, DAY, 'notes.txt'), 'not a price document');
    const file = await pack(dir, `prices-${DAY}.ppmd.7z`, [`${DAY}/*/*/prices`, `${DAY}/notes.txt`]);
    const listing = await listArchive(file);
    expect(listing.ignored).toEqual([`${DAY}/notes.txt`]);
    const out = join(dir, 'out');
    await extractArchive(file, listing, out);
    await expect(readFile(join(out, DAY, 'notes.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses what is not a whole 7z archive, and a file that fails its CRC', async () => {
    const file = await pack(dir, `prices-${DAY}.ppmd.7z`, [`${DAY}/*/*/prices`]);
    const bytes = await readFile(file);
    const cut = join(dir, 'cut', `prices-${DAY}.ppmd.7z`);
    await mkdir(join(dir, 'cut'));
    await writeFile(cut, bytes.subarray(0, bytes.length - 40));
    await expect(listArchive(cut)).rejects.toThrow(
      /not a 7z archive that reads: .*Unexpected end of archive|Cannot open/,
    );
    const garbage = join(dir, 'garbage', `prices-${DAY}.ppmd.7z`);
    await mkdir(join(dir, 'garbage'));
    await writeFile(garbage, '{"success": true}');
    await expect(listArchive(garbage)).rejects.toThrow(TcgcsvArchiveError);

    // The data flipped, the header intact: listed, then refused as it is extracted.
    const flipped = Buffer.from(bytes);
    flipped[100] = flipped[100]! ^ 0xff;
    const bad = join(dir, 'bad', `prices-${DAY}.ppmd.7z`);
    await mkdir(join(dir, 'bad'));
    await writeFile(bad, flipped);
    const listing = await listArchive(bad);
    await expect(extractArchive(bad, listing, join(dir, 'out'))).rejects.toThrow(
      /extraction failed: .*(CRC Failed|Data Error)/,
    );
    expect(process.exitCode).toBeUndefined();
  });

  it('refuses an archive over its bounds before extracting anything', async () => {
    const file = await pack(dir, `prices-${DAY}.ppmd.7z`, [`${DAY}/*/*/prices`]);
    await expect(listArchive(file, { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 2 })).rejects.toThrow(
      /entries, above the 2 an archive may hold/,
    );
    await expect(listArchive(file, { ...DEFAULT_ARCHIVE_LIMITS, maxFileBytes: 2_000 })).rejects.toThrow(
      /62\/2061\/prices is 2079 bytes, above the 2000 a document may be/,
    );
    await expect(listArchive(file, { ...DEFAULT_ARCHIVE_LIMITS, maxArchiveBytes: 100 })).rejects.toThrow(
      /bytes, above the 100 an archive may be/,
    );
  });

  it('refuses a decompression bomb: a document that expands far beyond its compressed size', async () => {
    await mkdir(join(dir, DAY, '62', '9999'), { recursive: true });
    await writeFile(join(dir, DAY, '62', '9999', 'prices'), Buffer.alloc(4 << 20, 0x20));
    const file = await pack(dir, `prices-${DAY}.ppmd.7z`, [`${DAY}/*/*/prices`]);
    await expect(listArchive(file, { ...DEFAULT_ARCHIVE_LIMITS, expansionSlackBytes: 0 })).rejects.toThrow(
      /expands more than 200 times its compressed size: refused as a decompression bomb/,
    );
  });

  it('reads 7-Zip listings: one block per entry, folders marked', () => {
    expect(
      parseListing([
        'Path = 2025-10-20/62',
        'Folder = +',
        'Size = 0',
        '',
        'Path = 2025-10-20/62/2061/prices',
        'Folder = -',
        'Size = 2079',
        'Method = PPMD:o6:mem24',
        '',
        'Path = x',
        'Size = 18446744073709551615',
      ]),
    ).toEqual([
      { path: '2025-10-20/62', size: 0, folder: true },
      { path: '2025-10-20/62/2061/prices', size: 2079, folder: false },
      { path: 'x', size: Infinity, folder: false },
    ]);
  });
});
