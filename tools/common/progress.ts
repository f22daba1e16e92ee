import { log, onNextLog } from './log';

/** A long command's progress: a bar on a terminal, structured lines otherwise. */
export interface Progress {
  /** `done` units so far; `fields` go into the structured line (not shown on the bar). */
  update(done: number, fields?: Record<string, unknown>): void;
  /**
   * Draws the last count and ends the bar's line on a terminal (an `update` at the total ends it
   * too); later updates are ignored. Idempotent.
   */
  end(): void;
}

export interface ProgressOptions {
  /** The structured line's `msg`, for instance `load progress`. */
  readonly msg: string;
  /** What the bar says it is doing, for instance `loading the sample`. */
  readonly label: string;
  /** Units in all, when known: a bar, a percentage and an ETA; else a count and a rate. */
  readonly total?: number;
  /** The unit counted, plural: `variants`, `rows`, `MB`. */
  readonly unit: string;
  /** How the bar writes a count and a rate (default: the whole number with thousands separators). */
  readonly format?: (count: number) => string;
  /** Where the bar is drawn; default stderr, where the structured lines go. */
  readonly stream?: Pick<NodeJS.WriteStream, 'write' | 'isTTY' | 'columns'>;
  readonly now?: () => number;
  /** When the work began, if before the reporter was made (`now()` then). */
  readonly startedAt?: number;
}

/** Redraws of the bar at most this often (a load reports hundreds of batches). */
const REDRAW_MS = 100;
const BAR_WIDTH = 24;

/**
 * A progress reporter: on a terminal (the stream is a TTY) one line redrawn in place with a bar,
 * the percentage, the count, the rate and the time left; otherwise one structured log line per
 * update with `percent` and `ratePerSecond` added, as the tools log everything else.
 */
export function progress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const started = options.startedAt ?? now();
  const rate = (done: number) => done / Math.max(0.001, (now() - started) / 1000);
  const percent = (done: number) =>
    options.total === undefined ? undefined : Math.floor((100 * done) / Math.max(1, options.total));

  if (!stream.isTTY) {
    return {
      update(done, fields = {}) {
        log('info', options.msg, {
          ...fields,
          percent: percent(done),
          ratePerSecond: Math.round(rate(done)),
        });
      },
      end() {
        // Each line is whole: nothing to end.
      },
    };
  }

  let drawnAt = -Infinity;
  let drawn = -1;
  let latest = 0;
  let open = false;
  let ended = false;
  const draw = () => {
    const line = progressLine(options, latest, rate(latest));
    // A terminal that reports no width (0, as under `script`) gets 100 columns.
    const width = Math.max(20, (stream.columns || 100) - 1);
    stream.write(`\r${line.length > width ? line.slice(0, width) : line.padEnd(width)}`);
    drawnAt = now();
    drawn = latest;
    if (!open) {
      open = true;
      // Another line written meanwhile (a warning, a failure) starts below the bar.
      onNextLog(closeLine);
    }
  };
  const closeLine = () => {
    if (!open) return;
    stream.write('\n');
    open = false;
    onNextLog(undefined);
  };
  const end = () => {
    if (ended) return;
    ended = true;
    if (drawn !== latest && (open || latest > 0)) draw(); // the last count, even within 100 ms
    closeLine();
  };
  return {
    update(done) {
      // Batches may finish out of order: the bar shows the most done so far, and stops at its end.
      if (ended || done < latest) return;
      latest = done;
      if (options.total !== undefined && done >= options.total) end();
      else if (now() - drawnAt >= REDRAW_MS) draw();
    },
    end,
  };
}

/** `label  [████░░░░]  48%  253,000/528,815 variants  1,690/s  ETA 2m 43s` (no bar without a total). */
export function progressLine(options: ProgressOptions, done: number, perSecond: number): string {
  const n = options.format ?? ((x: number) => Math.round(x).toLocaleString('en-US'));
  const parts = [options.label];
  if (options.total !== undefined && options.total > 0) {
    const share = Math.min(1, done / options.total);
    const filled = Math.round(share * BAR_WIDTH);
    parts.push(`[${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]`);
    parts.push(`${String(Math.floor(share * 100)).padStart(3)}%`);
    parts.push(`${n(done)}/${n(options.total)} ${options.unit}`);
    parts.push(`${n(perSecond)}/s`);
    const left = perSecond > 0 ? (options.total - done) / perSecond : undefined;
    parts.push(done >= options.total ? 'done' : left === undefined ? 'ETA …' : `ETA ${duration(left)}`);
  } else {
    parts.push(`${n(done)} ${options.unit}`, `${n(perSecond)}/s`);
  }
  return parts.join('  ');
}

/** `2m 43s`, `45s`, `1h 02m`. */
function duration(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** A count of bytes in megabytes with one decimal, for a bar whose unit is `MB`. */
export function megabytes(bytes: number): string {
  return (bytes / 1e6).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}
