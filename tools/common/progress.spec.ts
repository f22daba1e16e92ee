import { log } from './log';
import { megabytes, progress, ProgressOptions, progressLine } from './progress';

describe('progress', () => {
  /** A stream that records what is written, a terminal or not. */
  const stream = (isTTY: boolean) => {
    const writes: string[] = [];
    return { writes, stream: { isTTY, columns: 120, write: (s: string) => writes.push(s) > 0 } };
  };

  /** A bar of `total` units whose clock the test sets: `at(ms, done)` updates it to `done` at `ms`. */
  const clocked = (on: ProgressOptions['stream'], total: number, unit: string, t = 0) => {
    const clock = { t };
    const bar = progress({
      msg: 'load progress',
      label: 'loading',
      total,
      unit,
      stream: on,
      now: () => clock.t,
    });
    const at = (ms: number, done: number, fields?: Record<string, unknown>) => {
      clock.t = ms;
      bar.update(done, fields);
    };
    return { bar, at };
  };

  /** What `run` writes to stderr, where the structured lines go. */
  const stderrOf = (run: () => void): string[] => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      run();
    } finally {
      spy.mockRestore();
    }
    return written;
  };

  it('redraws one terminal line in place at most every 100 ms, and ends it at the total', () => {
    const { writes, stream: terminal } = stream(true);
    const { bar, at } = clocked(terminal, 1000, 'variants');
    at(1000, 250);
    at(1050, 300); // within 100 ms of the last redraw: skipped
    at(2000, 500);
    at(3000, 1000);
    bar.end(); // already ended: nothing more
    expect(writes.every((w) => w.startsWith('\r') || w === '\n')).toBe(true);
    expect(writes.map((w) => w.trim())).toEqual([
      'loading  [██████░░░░░░░░░░░░░░░░░░]   25%  250/1,000 variants  250/s  ETA 3s',
      'loading  [████████████░░░░░░░░░░░░]   50%  500/1,000 variants  250/s  ETA 2s',
      'loading  [████████████████████████]  100%  1,000/1,000 variants  333/s  done',
      '',
    ]);
    expect(writes.join('').split('\n')).toHaveLength(2); // one line on the terminal
  });

  it('shows the most done so far when batches finish out of order, and nothing after its end', () => {
    const { writes, stream: terminal } = stream(true);
    const { bar, at } = clocked(terminal, 100, 'rows');
    at(1000, 60);
    at(1010, 80); // throttled
    at(2000, 70); // an earlier batch finishing late
    bar.end(); // draws the last count, 80
    bar.update(90);
    const lines = writes.map((w) => w.trim()).filter((w) => w !== '');
    expect(lines.map((l) => /(\d+)\/100/.exec(l)![1])).toEqual(['60', '80']);
    expect(writes[writes.length - 1]).toBe('\n');
  });

  it('lets a log line written while the bar is open start on a line of its own', () => {
    const { writes, stream: terminal } = stream(true);
    const stderr = stderrOf(() => {
      const { bar, at } = clocked(terminal, 100, 'rows', 1000);
      bar.update(10);
      log('error', 'load failed');
      at(2000, 20); // a new line for the bar, below the log line
      bar.end();
    });
    expect(writes.filter((w) => w === '\n')).toHaveLength(2);
    expect(writes.indexOf('\n')).toBe(1); // the bar's line ended before the log line
    expect(stderr).toHaveLength(1);
  });

  it('writes structured lines when not on a terminal', () => {
    const lines = stderrOf(() => {
      const { at } = clocked(stream(false).stream, 200, 'rows');
      at(2000, 100, { batches: 1 });
    });
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'load progress',
        batches: 1,
        percent: 50,
        ratePerSecond: 50,
      }),
    ]);
  });

  it('counts with a rate and no bar when the total is unknown, and shortens long durations', () => {
    const opts = { msg: 'import progress', label: 'importing prices.csv', unit: 'rows' };
    expect(progressLine(opts, 12_345, 4_000.4)).toBe('importing prices.csv  12,345 rows  4,000/s');
    expect(progressLine({ ...opts, total: 10_000_000 }, 1_000, 1)).toMatch(/ETA 2777h 30m$/);
    expect(progressLine({ ...opts, total: 1_000 }, 0, 0)).toMatch(/ETA …$/);
  });

  it('writes counts and rates as its format says: an import measured in megabytes of its file', () => {
    const opts = {
      msg: 'import progress',
      label: 'importing prices.csv',
      unit: 'MB',
      total: 25_600_000,
      format: megabytes,
    };
    expect(progressLine(opts, 12_345_678, 3_100_000)).toBe(
      'importing prices.csv  [████████████░░░░░░░░░░░░]   48%  12.3/25.6 MB  3.1/s  ETA 5s',
    );
  });
});
