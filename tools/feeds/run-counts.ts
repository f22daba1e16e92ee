import { createWriteStream, rmSync, WriteStream } from 'node:fs';
import type { FeedRunCounts } from '@tcg/persistence';

/** How many distinct values seen are kept per reason: enough to name the problem, bounded. */
export const SAMPLES_PER_REASON = 5;
const SAMPLE_LENGTH = 80;

/**
 * Unmatched files this process has already started: a run that covers several days (a back-fill)
 * appends to the file its first day started, rather than each day replacing the one before.
 */
const startedFiles = new Set<string>();

/**
 * What one feed file's import did, counted as it goes, with its unmatched rows written to the
 * operator's file (NDJSON, one row per line: why it was not used, the day it belongs to when the
 * run has one, and the row's key in the feed). An unknown value is kept as a sample under its
 * reason (the first few distinct ones), so a report names what was seen, not only how often.
 */
export class RunCounts {
  rowsRead = 0;
  matched = 0;
  created = 0;
  unmatched = 0;
  observations = 0;
  readonly reasons: Record<string, number> = {};
  readonly samples: Record<string, string[]> = {};
  private out: WriteStream | undefined;

  constructor(
    private readonly unmatchedFile: string | undefined,
    private readonly context: { readonly day?: string } = {},
  ) {
    // A previous run's list would otherwise look like this run's when this one has none.
    if (unmatchedFile && !startedFiles.has(unmatchedFile)) rmSync(unmatchedFile, { force: true });
  }

  /**
   * A row the mapping could not use: counted under its reason and written to the unmatched file.
   * `seen` is the value that was not understood (an unknown condition's text, say).
   */
  miss(reason: string, row: Record<string, unknown>, seen?: string): void {
    this.skip(reason, seen);
    if (!this.unmatchedFile) return;
    if (!this.out) {
      const append = startedFiles.has(this.unmatchedFile);
      startedFiles.add(this.unmatchedFile);
      this.out = createWriteStream(this.unmatchedFile, { flags: append ? 'a' : 'w' });
    }
    const day = this.context.day === undefined ? {} : { day: this.context.day };
    this.out.write(`${JSON.stringify({ reason, ...day, ...row })}\n`);
  }

  /** A row left out on purpose (another platform's price): counted under its reason, not listed. */
  skip(reason: string, seen?: string): void {
    this.unmatched++;
    this.reasons[reason] = (this.reasons[reason] ?? 0) + 1;
    if (seen === undefined) return;
    const samples = (this.samples[reason] ??= []);
    const value = seen.length > SAMPLE_LENGTH ? `${seen.slice(0, SAMPLE_LENGTH)}…` : seen;
    if (samples.length < SAMPLES_PER_REASON && !samples.includes(value)) samples.push(value);
  }

  snapshot(): FeedRunCounts {
    return {
      rowsRead: this.rowsRead,
      matched: this.matched,
      created: this.created,
      unmatched: this.unmatched,
      observations: this.observations,
      reasons: { ...this.reasons },
      samples: Object.fromEntries(Object.entries(this.samples).map(([k, v]) => [k, [...v]])),
    };
  }

  /** Flushes the unmatched file; returns its path when anything was written. */
  async close(): Promise<string | undefined> {
    const out = this.out;
    if (!out) return undefined;
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    return this.unmatchedFile;
  }
}
