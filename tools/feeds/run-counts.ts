import { createWriteStream, rmSync, WriteStream } from 'node:fs';
import type { FeedRunCounts } from '@tcg/persistence';

/**
 * What one feed file's import did, counted as it goes, with its unmatched rows written to the
 * operator's file (NDJSON, one row per line: the row's key in the feed and why it was not used).
 */
export class RunCounts {
  rowsRead = 0;
  matched = 0;
  created = 0;
  unmatched = 0;
  observations = 0;
  readonly reasons: Record<string, number> = {};
  private out: WriteStream | undefined;

  constructor(private readonly unmatchedFile: string | undefined) {
    // A previous run's list would otherwise look like this run's when this one has none.
    if (unmatchedFile) rmSync(unmatchedFile, { force: true });
  }

  /** A row the mapping could not use: counted under its reason and written to the unmatched file. */
  miss(reason: string, row: Record<string, unknown>): void {
    this.skip(reason);
    if (!this.unmatchedFile) return;
    this.out ??= createWriteStream(this.unmatchedFile, { flags: 'w' });
    this.out.write(`${JSON.stringify({ reason, ...row })}\n`);
  }

  /** A row left out on purpose (another platform's price): counted under its reason, not listed. */
  skip(reason: string): void {
    this.unmatched++;
    this.reasons[reason] = (this.reasons[reason] ?? 0) + 1;
  }

  snapshot(): FeedRunCounts {
    return {
      rowsRead: this.rowsRead,
      matched: this.matched,
      created: this.created,
      unmatched: this.unmatched,
      observations: this.observations,
      reasons: { ...this.reasons },
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
