import { PgExchangeRateRepository, type DatedRate } from '@tcg/persistence';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { DEFAULT_POLITENESS, PoliteClient, type Politeness } from '../polite-client';
import type { Feed, FeedOptions, FeedRun } from '../feed';
import { MAX_ECB_BYTES, readEcbRates, type EcbDay } from './eurofxref';

export const DEFAULT_ECB_BASE_URL = 'https://www.ecb.europa.eu/stats/eurofxref';

/** The ECB's files: the latest day, the last 90 days, every day since 1999. */
export const ECB_FILES = {
  daily: 'eurofxref-daily.xml',
  '90d': 'eurofxref-hist-90d.xml',
  all: 'eurofxref-hist.xml',
} as const;
export type EcbFile = keyof typeof ECB_FILES;

/** Rates written per transaction (and per rest of `--rest-ratio`). */
const BATCH = 5_000;

/** `from`: a folder holding any of `ECB_FILES`' names. */
export interface EcbOptions extends FeedOptions {
  /** Which files, in this order (default: the daily one; `90d` or `all` back-fill). */
  readonly files?: readonly EcbFile[];
  readonly baseUrl?: string;
  readonly politeness?: Politeness;
}

/** Parses `ECB_FILES`: `daily`, `90d`, `all`, comma-separated. */
export function parseEcbFiles(value: string): EcbFile[] {
  const files = value.split(',').map((f) => f.trim());
  const bad = files.find((f) => !(f in ECB_FILES));
  if (bad !== undefined || files.length === 0 || files.length > 3)
    throw new Error(`ECB_FILES: "${(bad ?? value).slice(0, 40)}" is not a list of daily, 90d, all`);
  return [...new Set(files as EcbFile[])];
}

interface EcbDocument {
  readonly file: string;
  readonly text: string;
  readonly sha256: string;
  readonly fetchedAt: Date;
  readonly download: 'fetched' | 'local';
}

/**
 * The ECB's euro foreign exchange reference rates (issue 40, item 3): each configured file is one
 * run, read whole and refused whole when it breaks the format (`readEcbRates`), then its rates
 * written to `exchange_rates` with the run's id, only those new or different. No card data: what
 * v2's `currency=` converts with (docs/currencies.md). With `from`, the files of the folder that
 * bear the ECB's names, the longest history first.
 */
export function ecbFeed(ds: DataSource, opts: EcbOptions): Feed {
  return {
    name: 'ecb',
    async *runs() {
      const client = new PoliteClient(opts.politeness ?? DEFAULT_POLITENESS, opts.deadlines);
      const names = opts.from ? await filesIn(opts.from) : (opts.files ?? ['daily']).map((f) => ECB_FILES[f]);
      if (names.length === 0)
        throw new Error(`${opts.from}: no ECB file (${Object.values(ECB_FILES).join(', ')})`);
      for (const name of names) yield rateRun(ds, opts, client, name);
    },
  };
}

/** The ECB files of a folder, the longest history first, so that the newest day is written last. */
async function filesIn(dir: string): Promise<string[]> {
  const present = new Set(await readdir(dir));
  return [ECB_FILES.all, ECB_FILES['90d'], ECB_FILES.daily].filter((f) => present.has(f));
}

function rateRun(
  ds: DataSource,
  opts: EcbOptions,
  client: PoliteClient,
  file: string,
): FeedRun<EcbDocument, EcbDay[]> {
  return {
    file,
    acquire: async () => {
      if (opts.from) {
        const path = join(opts.from, file);
        if ((await stat(path)).size > MAX_ECB_BYTES)
          throw new Error(`${path}: larger than ${MAX_ECB_BYTES} bytes`);
        const text = await readFile(path, 'utf8');
        return { file, text, sha256: digest(text), fetchedAt: (await stat(path)).mtime, download: 'local' };
      }
      const url = `${(opts.baseUrl ?? DEFAULT_ECB_BASE_URL).replace(/\/+$/, '')}/${file}`;
      const text = await client.text(url, MAX_ECB_BYTES, 'application/xml, text/xml');
      return { file, text, sha256: digest(text), fetchedAt: new Date(), download: 'fetched' };
    },
    check: async ({ text }) => readEcbRates(file, text),
    apply: async (days, counts, paced, runId) => {
      const rates: DatedRate[] = days.flatMap((d) => d.rates.map((r) => ({ day: d.day, ...r })));
      const repo = new PgExchangeRateRepository(ds);
      const details = {
        days: days.length,
        first: days.at(-1)!.day,
        last: days[0]!.day,
        written: 0,
        unchanged: 0,
      };
      for (let i = 0; i < rates.length; i += BATCH) {
        const batch = rates.slice(i, i + BATCH);
        const written = await paced(() => repo.upsert('ecb', runId, batch));
        counts.rowsRead += batch.length;
        counts.matched += batch.length;
        counts.created += written.written;
        details.written += written.written;
        details.unchanged += written.unchanged;
      }
      return { details };
    },
  };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
