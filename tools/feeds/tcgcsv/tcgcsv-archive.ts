import SevenZip from '7z-wasm';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { MAX_EXPANSION, EXPANSION_SLACK } from '../decompress';

/**
 * TCGCSV's daily archive as published: `https://tcgcsv.com/archive/tcgplayer/prices-YYYY-MM-DD.ppmd.7z`,
 * a 7z archive (PPMd) of that day's price documents, `YYYY-MM-DD/<categoryId>/<groupId>/prices`
 * (tools/feeds/fixtures/tcgcsv/README.md). It is read with 7-Zip compiled to WebAssembly
 * (`7z-wasm`): no system binary, and 7-Zip checks every file's CRC as it extracts.
 */
export const ARCHIVE_FILE = /^prices-(\d{4}-\d{2}-\d{2})\.ppmd\.7z$/;

/** The day of an archive file's name, if it is one of TCGCSV's. */
export function archiveDayOf(fileName: string): string | undefined {
  return ARCHIVE_FILE.exec(fileName)?.[1];
}

/** What an archive may hold before it is refused whole, unread. */
export interface ArchiveLimits {
  /** The archive file itself: TCGCSV's days are tens of MB. */
  readonly maxArchiveBytes: number;
  /** Files and folders listed: 2025-10-20 has 4,316 price files in 85 categories. */
  readonly maxEntries: number;
  /** One document, as the sync reads it (`MAX_DOCUMENT_BYTES`). */
  readonly maxFileBytes: number;
  /** Everything the archive holds once extracted, whatever its compressed size. */
  readonly maxUnpackedBytes: number;
  /** Unpacked bytes allowed whatever the archive's size, before `MAX_EXPANSION` applies. */
  readonly expansionSlackBytes: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 1 << 30,
  maxEntries: 50_000,
  maxFileBytes: 32 << 20,
  maxUnpackedBytes: 4 * (1 << 30),
  expansionSlackBytes: EXPANSION_SLACK,
};

export class TcgcsvArchiveError extends Error {
  constructor(file: string, why: string) {
    super(`${file}: ${why}`);
    this.name = 'TcgcsvArchiveError';
  }
}

export interface ArchiveEntry {
  readonly path: string;
  readonly size: number;
  readonly folder: boolean;
}

/** One price document of the archive, by category and group. */
export interface ArchivePrices {
  readonly categoryId: number;
  readonly groupId: number;
  readonly size: number;
}

export interface ArchiveListing {
  readonly day: string;
  readonly prices: ArchivePrices[];
  /** Files that are not a price document of the day's layout: never extracted. */
  readonly ignored: string[];
  readonly unpackedBytes: number;
}

/**
 * Lists the archive and checks it against `limits` before a byte is extracted: its size, the
 * number of entries, each document's size, the whole's size and how many times its compressed
 * size it would expand (`MAX_EXPANSION`, as `decompress.ts` bounds the feeds' other files). A 7z
 * header states each file's size, and 7-Zip writes exactly that many bytes of it (checked against
 * its CRC), so the listing bounds the extraction. Only the day's price documents are counted as
 * the day's; any other file is named in `ignored` and never extracted.
 */
export async function listArchive(
  file: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<ArchiveListing> {
  const name = basename(file);
  const day = archiveDayOf(name);
  if (!day) throw new TcgcsvArchiveError(file, 'not named prices-YYYY-MM-DD.ppmd.7z');
  const bytes = (await stat(file)).size;
  if (bytes > limits.maxArchiveBytes)
    throw new TcgcsvArchiveError(
      file,
      `${bytes} bytes, above the ${limits.maxArchiveBytes} an archive may be`,
    );
  const { code, out, err } = await sevenZip(dirname(resolve(file)), undefined, [
    'l',
    '-slt',
    '-ba',
    '-bsp0',
    name,
  ]);
  if (code !== 0) throw new TcgcsvArchiveError(file, `not a 7z archive that reads: ${errorOf(err, code)}`);
  const entries = parseListing(out);
  if (entries.length > limits.maxEntries)
    throw new TcgcsvArchiveError(
      file,
      `${entries.length} entries, above the ${limits.maxEntries} an archive may hold`,
    );
  const layout = new RegExp(`^${day}/([1-9]\\d{0,9})/([1-9]\\d{0,9})/prices$`);
  const prices: ArchivePrices[] = [];
  const ignored: string[] = [];
  let unpackedBytes = 0;
  for (const e of entries) {
    if (e.folder) continue;
    unpackedBytes += e.size;
    const m = layout.exec(e.path);
    if (!m) {
      ignored.push(e.path);
      continue;
    }
    if (e.size > limits.maxFileBytes)
      throw new TcgcsvArchiveError(
        file,
        `${e.path} is ${e.size} bytes, above the ${limits.maxFileBytes} a document may be`,
      );
    prices.push({ categoryId: Number(m[1]), groupId: Number(m[2]), size: e.size });
  }
  if (unpackedBytes > limits.maxUnpackedBytes)
    throw new TcgcsvArchiveError(
      file,
      `it holds ${unpackedBytes} bytes, above the ${limits.maxUnpackedBytes} allowed`,
    );
  if (unpackedBytes > limits.expansionSlackBytes + MAX_EXPANSION * bytes)
    throw new TcgcsvArchiveError(
      file,
      `it expands more than ${MAX_EXPANSION} times its compressed size: refused as a decompression bomb`,
    );
  if (prices.length === 0)
    throw new TcgcsvArchiveError(file, `no ${day}/<categoryId>/<groupId>/prices in it`);
  prices.sort((a, b) => a.categoryId - b.categoryId || a.groupId - b.groupId);
  return { day, prices, ignored, unpackedBytes };
}

/**
 * Extracts the price documents of `categoryIds` (all when undefined) into `dest`, as
 * `dest/YYYY-MM-DD/<categoryId>/<groupId>/prices`: one pass over the archive (PPMd archives are
 * solid: a file is decoded after every file before it), streamed to disk by 7-Zip, so memory stays
 * at the decoder's model whatever the day's size. A file that fails its CRC, or an archive cut
 * short, throws; what was extracted then is the caller's to remove.
 */
export async function extractArchive(
  file: string,
  listing: ArchiveListing,
  dest: string,
  categoryIds?: readonly number[],
): Promise<{ files: number; bytes: number }> {
  const wanted = categoryIds ? new Set(categoryIds) : undefined;
  const chosen = listing.prices.filter((p) => !wanted || wanted.has(p.categoryId));
  if (chosen.length === 0) return { files: 0, bytes: 0 };
  await mkdir(dest, { recursive: true });
  const categories = [...new Set(chosen.map((p) => p.categoryId))];
  // Only the layout's own paths: a name elsewhere in the archive is never written.
  const patterns = categories.map((c) => `-i!${listing.day}/${c}/*/prices`);
  const { code, err } = await sevenZip(dirname(resolve(file)), resolve(dest), [
    'x',
    basename(file),
    '-o/out',
    '-y',
    '-bsp0',
    '-bso0',
    ...patterns,
  ]);
  if (code !== 0) throw new TcgcsvArchiveError(file, `extraction failed: ${errorOf(err, code)}`);
  // 7-Zip wrote what the listing said; counted again from the disk for the report.
  let files = 0;
  let bytes = 0;
  for (const c of categories) {
    const folder = join(dest, listing.day, String(c));
    for (const g of await readdir(folder).catch(() => [] as string[])) {
      const s = await stat(join(folder, g, 'prices')).catch(() => undefined);
      if (s) {
        files++;
        bytes += s.size;
      }
    }
  }
  if (files !== chosen.length)
    throw new TcgcsvArchiveError(file, `extracted ${files} price files of the ${chosen.length} listed`);
  return { files, bytes };
}

/** The listing of `7zz l -slt -ba`: blocks of `Key = value` lines, one per entry. */
export function parseListing(lines: readonly string[]): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  let current: Record<string, string> = {};
  const flush = () => {
    const path = current['Path'];
    if (path !== undefined) {
      const folder = current['Folder'] === '+' || (current['Attributes'] ?? '').startsWith('D');
      const size = Number(current['Size'] ?? '0');
      entries.push({ path, size: Number.isSafeInteger(size) && size >= 0 ? size : Infinity, folder });
    }
    current = {};
  };
  for (const line of lines) {
    const m = /^([A-Za-z ]+?) = (.*)$/.exec(line);
    if (!m) continue;
    // Each entry starts with its Path.
    if (m[1] === 'Path') flush();
    current[m[1]!] = m[2]!;
  }
  flush();
  return entries;
}

let wasmBinary: Promise<Buffer> | undefined;

/**
 * Runs 7-Zip once, in a fresh WebAssembly instance (its state is per run), with `from` mounted
 * as its working folder and `to`, when given, as `/out`. The compiled code is read once per
 * process. 7-Zip runs synchronously: the event loop waits for it.
 */
async function sevenZip(
  from: string,
  to: string | undefined,
  args: string[],
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  wasmBinary ??= import('node:fs/promises').then((fs) =>
    fs.readFile(join(dirname(require.resolve('7z-wasm')), '7zz.wasm')),
  );
  const binary = await wasmBinary;
  const module = await SevenZip({
    print: (s: string) => out.push(s),
    printErr: (s: string) => {
      if (s.trim() !== '') err.push(s.trim());
    },
    wasmBinary: binary.buffer.slice(binary.byteOffset, binary.byteOffset + binary.byteLength) as ArrayBuffer,
  });
  module.FS.mkdir('/in');
  module.FS.mount(module.NODEFS, { root: from }, '/in');
  if (to) {
    module.FS.mkdir('/out');
    module.FS.mount(module.NODEFS, { root: to }, '/out');
  }
  module.FS.chdir('/in');
  // Emscripten sets the process's exit code to the program's: it is 7-Zip's, not ours.
  const exitCode = process.exitCode;
  let code: number;
  try {
    code = (module.callMain(args) as unknown as number | undefined) ?? 0;
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    code = typeof status === 'number' ? status : 2;
    if (typeof status !== 'number') err.push(String(error));
  } finally {
    process.exitCode = exitCode;
  }
  return { code, out, err };
}

function errorOf(err: readonly string[], code: number): string {
  const text = err.filter((l) => !/^ERRORS?:$/.test(l)).join('; ');
  return (text || `7-Zip exit code ${code}`).slice(0, 300);
}
