import { log } from './log';
import { progress, progressLine } from './progress';

describe('progress', () => {
  const terminal = () => {
    const writes: string[] = [];
    return { writes, stream: { isTTY: true, columns: 120, write: (s: string) => writes.push(s) > 0 } };
  };

  it('redraws one terminal line in place at most every 100 ms, and ends it at the total', () => {
    const { writes, stream } = terminal();
    let t = 0;
    const bar = progress({
      msg: 'load progress',
      label: 'loading',
      total: 1000,
      unit: 'variants',
      stream,
      now: () => t,
    });
    t = 1000;
    bar.update(250);
    t = 1050;
    bar.update(300); // within 100 ms of the last redraw: skipped
    t = 2000;
    bar.update(500);
    t = 3000;
    bar.update(1000);
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
    const { writes, stream } = terminal();
    let t = 0;
    const bar = progress({ msg: 'm', label: 'l', total: 100, unit: 'rows', stream, now: () => t });
    t = 1000;
    bar.update(60);
    t = 1010;
    bar.update(80); // throttled
    t = 2000;
    bar.update(70); // an earlier batch finishing late
    bar.end(); // draws the last count, 80
    bar.update(90);
    const lines = writes.map((w) => w.trim()).filter((w) => w !== '');
    expect(lines.map((l) => /(\d+)\/100/.exec(l)![1])).toEqual(['60', '80']);
    expect(writes[writes.length - 1]).toBe('\n');
  });

  it('lets a log line written while the bar is open start on a line of its own', () => {
    const { writes, stream } = terminal();
    const stderr: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    try {
      let t = 1000;
      const bar = progress({ msg: 'm', label: 'l', total: 100, unit: 'rows', stream, now: () => t });
      bar.update(10);
      log('error', 'load failed');
      t = 2000;
      bar.update(20); // a new line for the bar, below the log line
      bar.end();
    } finally {
      spy.mockRestore();
    }
    expect(writes.filter((w) => w === '\n')).toHaveLength(2);
    expect(writes.indexOf('\n')).toBe(1); // the bar's line ended before the log line
    expect(stderr).toHaveLength(1);
  });

  it('writes structured lines when not on a terminal', () => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      let t = 0;
      const stream = { isTTY: false, columns: 80, write: () => true };
      const bar = progress({
        msg: 'load progress',
        label: 'x',
        total: 200,
        unit: 'rows',
        stream,
        now: () => t,
      });
      t = 2000;
      bar.update(100, { batches: 1 });
    } finally {
      spy.mockRestore();
    }
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
});
